import ArgumentParser
import Foundation
import Laboratory

/// The `--summary --json` shape of `lab events`.
struct SummaryDocument: Encodable {
    struct Experiment: Encodable {
        struct Variant: Encodable {
            var name: String
            var exposures: Int
            var observedShare: Double
            var expectedShare: Double
        }

        var source: String
        var experiment: String
        var total: Int
        /// Exposures of forced variants, left out of the check.
        var forcedExposures: Int
        var chiSquare: Double
        var pValue: Double
        /// Whether there were enough exposures for the check to say anything.
        var judged: Bool
        var sampleRatioMismatch: Bool
        var variants: [Variant]

        init(_ summary: ExposureSummary) {
            source = summary.source
            experiment = summary.experiment
            total = summary.total
            forcedExposures = summary.forcedExposures
            judged = summary.canJudge
            chiSquare = summary.chiSquare
            pValue = summary.pValue
            sampleRatioMismatch = summary.isSampleRatioMismatch
            variants = summary.rows.map {
                Variant(
                    name: $0.variant,
                    exposures: $0.exposures,
                    observedShare: $0.observedShare,
                    expectedShare: $0.expectedShare
                )
            }
        }
    }

    var experiments: [Experiment]
}
