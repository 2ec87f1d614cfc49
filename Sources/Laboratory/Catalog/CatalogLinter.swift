import GrowthBook

/// Checks catalogs the way `lab check` reports them: every structural error,
/// experiments in any of the catalogs that share a key and can be active
/// together, and warnings for what is legal but likely wrong.
///
/// Warnings: keys that are not lowerCamelCase and experiment or variant names
/// that are not UpperCamelCase; a variant whose share is under 1 %; two
/// variants with identical assignments, unless one is named as an A/A check
/// (its name contains `Check`); a token range that can never be active.
public struct CatalogLinter: Sendable {
    /// A linter; it keeps nothing between checks.
    public init() {}

    /// The outcome for a set of files.
    public struct Report: Sendable {
        /// Every problem found, in the order of the files and their lines.
        public var diagnostics: [Diagnostic]
        /// Files that could not be read at all.
        public var unreadable: [String]
        /// How many files were checked.
        public var files: Int

        /// How many problems are errors.
        public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
        /// How many problems are warnings.
        public var warnings: Int { diagnostics.filter { $0.severity == .warning }.count }
    }

    /// Checks catalog files together, and GrowthBook payloads (name and text) against them.
    public func check(files: [CatalogFile], payloads: [(name: String, text: String)] = []) -> Report {
        var diagnostics: [Diagnostic] = []
        var unreadable: [String] = []
        var catalogs: [LocatedCatalog] = []
        // Every file, and the sound part of each: a broken experiment is
        // reported and the rest is still checked, as a compiler does.
        for file in files {
            let (catalog, found, isUnreadable) = CatalogDecoder().decodeForChecking(file)
            diagnostics += found
            if let catalog { catalogs.append(catalog) }
            if isUnreadable { unreadable.append(file.name) }
        }
        diagnostics += sourceNames(catalogs)
        for catalog in catalogs { diagnostics += warnings(catalog) }
        diagnostics += sharedKeys(catalogs)
        var catalogKeys: [String: String] = [:]
        for located in catalogs {
            for experiment in located.catalog.experiments {
                let place = located.locations[experiment.name].map { "\(located.file):\($0.position)" } ?? located.file
                for key in experiment.keys where catalogKeys[key] == nil {
                    catalogKeys[key] =
                        "experiment \"\(ExperimentID(source: located.catalog.source, name: experiment.name))\" (\(place))"
                }
            }
        }
        for payload in payloads {
            diagnostics += PayloadLinter().check(payload.text, file: payload.name, claimedKeys: catalogKeys)
        }
        return Report(diagnostics: diagnostics, unreadable: unreadable, files: files.count + payloads.count)
    }

    // MARK: - Across catalogs

    private func sourceNames(_ catalogs: [LocatedCatalog]) -> [Diagnostic] {
        var owners: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for located in catalogs {
            if let other = owners[located.catalog.source] {
                diagnostics.append(
                    Diagnostic(
                        file: located.file,
                        position: SourcePosition(line: 1, column: 1),
                        message:
                            "source \"\(located.catalog.source)\" is also the source of \(other); source names must be unique"
                    )
                )
            }
            owners[located.catalog.source] = located.file
        }
        return diagnostics
    }

    /// Where an experiment can be active, as a part of [0, 1). User-level
    /// experiments draw their token from the user id, so any device range can
    /// meet them; resolved experiments run everywhere.
    private func reach(_ experiment: Experiment) -> HalfOpenRange {
        experiment.isResolved
            ? HalfOpenRange(lower: 0, upper: 1) : experiment.activeTokenRange ?? HalfOpenRange(lower: 0, upper: 1)
    }

    /// One experiment that assigns a key, for the shared-key check.
    private struct KeyHolder {
        var catalog: LocatedCatalog
        var experiment: Experiment
        /// Its place in the catalogs, to report in the order they were read.
        var order: Int

        var name: String { ExperimentID(source: catalog.catalog.source, name: experiment.name).description }

        var place: String {
            let location = catalog.locations[experiment.name]
            return "\(catalog.file):\(location.map { "\($0.position.line):\($0.position.column)" } ?? "1:1")"
        }
    }

    /// Experiments that share a key and can be active together, one error
    /// for each group of them: experiments linked by overlapping ranges (or
    /// by being user-level beside device-level) are one group, found by a
    /// sweep over the ranges, so a key shared by thousands costs a sort and
    /// reads as one problem, not one for every pair.
    private func sharedKeys(_ catalogs: [LocatedCatalog]) -> [Diagnostic] {
        var byKey: [String: [KeyHolder]] = [:]
        var order = 0
        for located in catalogs {
            for experiment in located.catalog.experiments + located.flawedExperiments {
                order += 1
                for key in experiment.keys {
                    byKey[key, default: []].append(KeyHolder(catalog: located, experiment: experiment, order: order))
                }
            }
        }
        var diagnostics: [Diagnostic] = []
        for key in byKey.keys.sorted() {
            let holders = byKey[key]!
            guard holders.count > 1 else { continue }
            if Set(holders.map(\.experiment.subject)).count > 1 {
                let subjects =
                    holders.count == 2
                    ? "one is user-level, the other device-level" : "some are user-level, others device-level"
                diagnostics.append(conflict(holders, key: key, overlap: "on any token (\(subjects))"))
                continue
            }
            let sorted = holders.map { ($0, reach($0.experiment)) }.filter { $0.1.lower < $0.1.upper }
                .sorted { ($0.1.lower, $0.0.order) < ($1.1.lower, $1.0.order) }
            var group: [KeyHolder] = []
            var reachEnd = -Double.infinity
            var overlap: HalfOpenRange?
            func close() {
                if group.count > 1, let overlap {
                    diagnostics.append(conflict(group, key: key, overlap: "on tokens \(overlap)"))
                }
                group = []
                overlap = nil
            }
            for (holder, range) in sorted {
                if range.lower < reachEnd {
                    let shared = HalfOpenRange(lower: range.lower, upper: min(range.upper, reachEnd))
                    overlap =
                        overlap.map {
                            HalfOpenRange(lower: min($0.lower, shared.lower), upper: max($0.upper, shared.upper))
                        } ?? shared
                } else {
                    close()
                }
                group.append(holder)
                reachEnd = max(reachEnd, range.upper)
            }
            close()
        }
        return diagnostics
    }

    /// The error for a group of experiments sharing `key`, placed where the
    /// second of them (in the order the catalogs were read) names the key.
    private func conflict(_ group: [KeyHolder], key: String, overlap: String) -> Diagnostic {
        let members = group.sorted { $0.order < $1.order }
        let second = members[1]
        let location = second.catalog.locations[second.experiment.name]
        let message: String
        if members.count == 2 {
            message =
                "experiments \"\(second.name)\" and \"\(members[0].name)\" (\(members[0].place)) share key \"\(key)\" "
                + "and can be active together \(overlap)"
        } else {
            let shown = members.prefix(8).map { "\"\($0.name)\" (\($0.place))" }
            let more = members.count > 8 ? " and \(members.count - 8) more" : ""
            message =
                "\(members.count) experiments share key \"\(key)\" and can be active together, two at a time or more, "
                + "\(overlap): \(shown.joined(separator: ", "))\(more)"
        }
        return Diagnostic(
            file: second.catalog.file,
            position: location?.keys[key] ?? location?.position,
            message: message
        )
    }

    // MARK: - Within a catalog

    private func warnings(_ located: LocatedCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func warn(_ message: String, at position: SourcePosition?) {
            diagnostics.append(Diagnostic(file: located.file, position: position, severity: .warning, message: message))
        }
        for experiment in located.catalog.experiments {
            let location = located.locations[experiment.name]
            let what = "experiment \"\(experiment.name)\""
            if !Self.isUpperCamelCase(experiment.name) {
                warn("\(what): experiment names are UpperCamelCase", at: location?.position)
            }
            for key in experiment.keys where !Self.isLowerCamelCase(key) {
                warn("key \"\(key)\" of \(what): keys are lowerCamelCase", at: location?.keys[key])
            }
            let total = experiment.variants.reduce(0) { $0 + $1.weight }
            for variant in experiment.variants {
                let position = location?.variants[variant.name]
                if !Self.isUpperCamelCase(variant.name) {
                    warn("variant \"\(variant.name)\" of \(what): variant names are UpperCamelCase", at: position)
                }
                if total > 0, variant.weight / total < 0.01 {
                    let share = variant.weight / total * 100
                    warn(
                        "variant \"\(variant.name)\" of \(what) gets \(Self.format(share)) % of draws, under 1 %",
                        at: location?.weights[variant.name] ?? position
                    )
                }
            }
            for (index, variant) in experiment.variants.enumerated() {
                for earlier in experiment.variants[..<index] where earlier.assignments == variant.assignments {
                    guard !variant.name.contains("Check") && !earlier.name.contains("Check") else { continue }
                    warn(
                        "variants \"\(earlier.name)\" and \"\(variant.name)\" of \(what) assign the same values; "
                            + "name one as an A/A check (for example \"\(earlier.name)Check\") if that is the intent",
                        at: location?.variants[variant.name]
                    )
                }
            }
            if let range = experiment.activeTokenRange, range.share == 0, !experiment.isResolved {
                warn("\(what) can never be active: its token range \(range) is empty", at: location?.range)
            }
        }
        return diagnostics
    }

    static func isUpperCamelCase(_ name: String) -> Bool {
        guard let first = name.first, first.isUppercase, first.isLetter else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber }
    }

    static func isLowerCamelCase(_ name: String) -> Bool {
        guard let first = name.first, first.isLowercase, first.isLetter else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber }
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
