/// Exposures (`displayed` events) per experiment and variant, with a
/// sample-ratio-mismatch check: the first thing to look at when numbers look odd.
///
/// Each device is exposed once per variant, so exposures count devices. If the
/// split differs from the configured weights more than chance allows
/// (chi-square, p < 0.001), assignment or logging is broken somewhere.
/// Exposures of variants a person forced are not experiment data: they are
/// counted apart and left out of the check.
package struct ExposureSummary: Sendable, Hashable {
    /// One variant's exposures against its configured share.
    package struct Row: Sendable, Hashable {
        package var variant: String
        package var exposures: Int
        /// The configured share of the variant, 0 to 1.
        package var expectedShare: Double
        /// The observed share, 0 to 1.
        package var observedShare: Double
    }

    package var source: String
    package var experiment: String
    package var rows: [Row]
    package var total: Int
    /// Exposures left out of the check because a person had forced the variant.
    package var forcedExposures: Int
    package var chiSquare: Double
    package var pValue: Double

    /// The threshold below which the split counts as a mismatch.
    package static let threshold = 0.001
    /// The chi-square check needs at least this many expected exposures of every variant.
    package static let minimumExpected = 5.0

    /// Whether there are enough exposures for the check to say anything:
    /// every variant with weight expects at least ``minimumExpected``.
    package var canJudge: Bool {
        rows.filter { $0.expectedShare > 0 }.count > 1
            && rows.allSatisfy { $0.expectedShare == 0 || Double(total) * $0.expectedShare >= Self.minimumExpected }
    }

    /// Whether the observed split is too unlikely under the configured weights.
    package var isSampleRatioMismatch: Bool { canJudge && pValue < Self.threshold }

    /// Summaries for every experiment with exposures; variants the catalog no
    /// longer has are shown with an expected share of 0.
    package static func summaries(
        counts: [ExposureCount],
        experiments: [(source: String, experiment: Experiment)]
    ) -> [ExposureSummary] {
        let grouped = Dictionary(grouping: counts) { ExperimentID(source: $0.source, name: $0.experiment) }
        let definitions = Dictionary(
            experiments.map { (ExperimentID(source: $0.source, name: $0.experiment.name), $0.experiment) },
            uniquingKeysWith: { first, _ in first }
        )
        return grouped.compactMap { id, group -> ExposureSummary? in
            guard let first = group.first else { return nil }
            let definition = definitions[id]
            var names = definition?.variants.map(\.name) ?? []
            for count in group where !names.contains(count.variant) { names.append(count.variant) }
            let observed = names.map { name in group.first { $0.variant == name }?.count ?? 0 }
            let weights = names.map { name in definition?.variant(named: name)?.weight ?? 0 }
            let total = observed.reduce(0, +)
            let weightTotal = weights.reduce(0, +)
            let statistic = ChiSquare.statistic(observed: observed, expectedShares: weights)
            let rows = names.indices.map { index in
                Row(
                    variant: names[index],
                    exposures: observed[index],
                    expectedShare: weightTotal > 0 ? weights[index] / weightTotal : 0,
                    observedShare: total > 0 ? Double(observed[index]) / Double(total) : 0
                )
            }
            return ExposureSummary(
                source: first.source,
                experiment: first.experiment,
                rows: rows,
                total: total,
                forcedExposures: group.reduce(0) { $0 + $1.forced },
                chiSquare: statistic,
                pValue: ChiSquare.pValue(statistic, degrees: weights.filter { $0 > 0 }.count - 1)
            )
        }.sorted { ($0.source, $0.experiment) < ($1.source, $1.experiment) }
    }
}
