import Foundation
import Synchronization

/// Wraps other sources so a person can force any of their experiments.
///
/// It lists *all* experiments of the wrapped sources, active or not, and
/// applies the forced variants stored in the state file: a variant, or
/// `Inactive` (the Tweaks screen's choice that deactivates an experiment),
/// for everyone or for a ``Scope``: this device gets those whose scope its
/// attributes match, the one that precedes the others winning. A
/// forced variant of an experiment or variant that no longer exists is stale:
/// it is not applied, and ``staleForcedVariants()`` reports it. Forced variants
/// persist across runs and are seen by every process that opens the same state.
public final class DebugSource: TargetedSource, Sendable {
    /// The name of the choice that deactivates an experiment, as the Tweaks screen showed it.
    public static let inactiveChoice = "Inactive"

    public let name = "Debug"
    /// The wrapped sources, in priority order.
    public let sources: [any ExperimentSource]
    let store: any DeviceStore & ForcedVariantStore

    /// The device's attributes by layer (see ``DeviceAttribute``): its own,
    /// the last stored ones read, this run's, and the merged set last given
    /// to the wrapped sources.
    private struct AttributeLayers {
        var own: [String: String]
        var stored: [String: String] = [:]
        var run: [String: String] = [:]
        var given: [String: String]?

        /// What the device is evaluated with: later layers win.
        var merged: [String: String] {
            own.merging(stored) { _, new in new }.merging(run) { _, new in new }
        }
    }

    private let attributes: Mutex<AttributeLayers>

    /// The last entries and what they were built from. Sources hand back the
    /// same arrays while nothing changed, so comparing them is cheap, and
    /// rebuilding thousands of entries on every refresh is not.
    /// When only the forced variants changed, the entries of the
    /// experiments whose forced variants changed are made again, found
    /// through ``positions``; the other thousands are kept.
    private struct Memo {
        var attributes: [String: String]
        var forcedByID: [ExperimentID: [ForcedVariant]]
        var experiments: [[Experiment]]
        var natural: [[ActiveVariant]]
        var entries: [DebugEntry]
        /// Each experiment's position in ``entries``; `nil` when two entries
        /// share an id, and then every change builds the entries again.
        var positions: [ExperimentID: Int]?
        /// What the app gets, in entry order: each entry's ``DebugEntry/effective``
        /// that is not `nil` (``activeVariants()``).
        var active: [ActiveVariant]
        /// Each entry's position in ``active``; -1 for an entry that gives nothing.
        var activePositions: [Int32]

        /// ``active`` and ``activePositions`` made again from every entry.
        mutating func collectActive() {
            active = []
            active.reserveCapacity(entries.count)
            activePositions = []
            activePositions.reserveCapacity(entries.count)
            // By index: iterating would copy every entry, experiment and all, to read one field.
            for index in entries.indices {
                if let effective = entries[index].effective {
                    activePositions.append(Int32(active.count))
                    active.append(effective)
                } else {
                    activePositions.append(-1)
                }
            }
        }

        /// Puts `entry` at `position`, and what the app gets from it into ``active``.
        mutating func replace(_ position: Int, with entry: DebugEntry) -> Bool {
            entries[position] = entry
            let effective = entry.effective
            let place = Int(activePositions[position])
            switch (place >= 0, effective) {
            case (true, let effective?):
                active[place] = effective
                return true
            case (false, nil): return true
            default: return false  // it starts or stops giving something: the list moves
            }
        }
    }

    private let memo = Mutex<Memo?>(nil)

    /// - Parameters:
    ///   - sources: the sources it wraps, in priority order.
    ///   - store: where forced variants and stored attributes are kept.
    ///   - attributes: the device's own attributes (a user id, what a
    ///     GrowthBook connection sends); those stored in the state file win
    ///     over them, and they decide the scoped forced variants it gets.
    public init(
        sources: [any ExperimentSource],
        store: any DeviceStore & ForcedVariantStore,
        attributes: [String: String] = [:]
    ) {
        self.sources = sources
        self.store = store
        self.attributes = Mutex(AttributeLayers(own: attributes))
    }

    /// The attributes the device is evaluated with and scoped forced
    /// variants are matched against: its own, the stored ones, this run's.
    public var deviceAttributes: [String: String] {
        (try? syncAttributes()) ?? attributes.withLock { $0.merged }
    }

    /// The attributes given for this run (``useAttributes(_:)``).
    public var runAttributes: [String: String] { attributes.withLock { $0.run } }

    /// Every attribute the device uses or its targeting reads, with where
    /// its value comes from and which experiments read it.
    public func attributeList() throws -> [DeviceAttribute] {
        attributeList(entries: try entries())
    }

    /// The attribute list as of `entries`, which were just read (they read
    /// the stored attributes and the forced variants): nothing is read again.
    public func attributeList(entries: [DebugEntry]) -> [DeviceAttribute] {
        let layers = attributes.withLock { $0 }
        var readBy = targetingAttributes
        // A scoped forced variant reads its scope's attributes.
        for forced in entries.flatMap(\.forcedVariants) {
            for name in forced.scope.attributes.keys where readBy[name]?.contains(forced.experiment) != true {
                readBy[name, default: []].append(forced.experiment)
            }
        }
        return DeviceAttribute.list(
            own: layers.own,
            sourceDefaults: defaultAttributes,
            stored: layers.stored,
            run: layers.run,
            readBy: readBy.mapValues { Array(Set($0)).sorted() }
        )
    }

    public var experiments: [Experiment] {
        sources.flatMap(\.experiments)
    }

    public var leaves: [any ExperimentSource] {
        sources.flatMap(\.leaves)
    }

    public var targetingAttributes: [String: [String]] {
        var readBy: [String: [String]] = [:]
        for source in sources {
            for (name, experiments) in source.targeting?.targetingAttributes ?? [:] {
                readBy[name, default: []] += experiments
            }
        }
        return readBy
    }

    public var defaultAttributes: [String: String] {
        sources.reduce(into: [:]) { defaults, source in
            defaults.merge(source.targeting?.defaultAttributes ?? [:]) { first, _ in first }
        }
    }

    /// Takes the attributes given for this run (`lab --attribute`, `--as`),
    /// replacing those given before: they win over the stored ones, the
    /// wrapped sources take the merged set, and scoped forced variants are
    /// matched against it from now on.
    public func useAttributes(_ attributes: [String: String]) {
        self.attributes.withLock { $0.run = attributes }
        _ = try? syncAttributes()
    }

    /// Reads the stored attributes and, when the merged set changed, gives
    /// it to the wrapped sources: another process (the console, `lab serve`)
    /// may have stored new ones.
    /// - Returns: the merged set.
    @discardableResult
    private func syncAttributes() throws -> [String: String] {
        let stored = try store.storedAttributes()
        // Given under the lock, so two callers cannot hand the sources their sets in the wrong order.
        return attributes.withLock { layers in
            layers.stored = stored
            let merged = layers.merged
            if layers.given != merged {
                for source in sources { source.targeting?.useAttributes(merged) }
                layers.given = merged
            }
            return merged
        }
    }

    public func activeVariants() throws -> [ActiveVariant] {
        try evaluation().active
    }

    /// Every experiment of every wrapped source with what it would run and what it runs.
    public func entries() throws -> [DebugEntry] {
        try evaluation().entries
    }

    /// The entries and what the app gets from them, for the sources' current
    /// evaluation: kept from the last time, patched where forced variants
    /// changed, made again when anything else did.
    private func evaluation() throws -> Memo {
        let forcedVariants = try store.forcedVariants()
        let attributes = try syncAttributes()
        let experiments = sources.map(\.experiments)
        let natural = try sources.map { try $0.activeVariants() }
        var forcedByID: [ExperimentID: [ForcedVariant]] = [:]
        for forcedVariant in forcedVariants {
            forcedByID[forcedVariant.experimentID, default: []].append(forcedVariant)
        }
        // Patched under the lock, where nothing else holds the memo's lists,
        // so they change in place instead of being copied first.
        let patched = memo.withLock { memo -> Memo? in
            guard var kept = memo, let positions = kept.positions, kept.experiments == experiments,
                kept.natural == natural, kept.attributes == attributes
            else { return nil }
            memo = nil
            if kept.forcedByID != forcedByID {
                let changed = Set(forcedByID.keys).union(kept.forcedByID.keys).filter {
                    forcedByID[$0] != kept.forcedByID[$0]
                }
                var listMoved = false
                for id in changed {
                    // A forced variant of an experiment no source has changes no entry.
                    guard let position = positions[id] else { continue }
                    let entry = kept.entries[position]
                    let updated = DebugEntry(
                        source: entry.source,
                        experiment: entry.experiment,
                        natural: entry.natural,
                        forcedVariants: forcedByID[id] ?? [],
                        attributes: attributes
                    )
                    if !kept.replace(position, with: updated) { listMoved = true }
                }
                if listMoved { kept.collectActive() }
                kept.forcedByID = forcedByID
            }
            memo = kept
            return kept
        }
        if let patched { return patched }
        var entries: [DebugEntry] = []
        entries.reserveCapacity(experiments.reduce(0) { $0 + $1.count })
        for (index, source) in sources.enumerated() {
            // Each experiment's active variant by position, the first of a
            // name winning: the variants themselves are not copied to index them.
            let active = natural[index]
            var position: [String: Int] = [:]
            position.reserveCapacity(active.count)
            for at in active.indices where position[active[at].experiment.name] == nil {
                position[active[at].experiment.name] = at
            }
            for experiment in experiments[index] {
                entries.append(
                    DebugEntry(
                        source: source.name,
                        experiment: experiment,
                        natural: position[experiment.name].map { active[$0] },
                        forcedVariants: forcedVariants.isEmpty
                            ? [] : forcedByID[ExperimentID(source: source.name, name: experiment.name)] ?? [],
                        attributes: attributes
                    )
                )
            }
        }
        var positions: [ExperimentID: Int]? = [:]
        positions?.reserveCapacity(entries.count)
        for index in entries.indices {
            let id = ExperimentID(source: entries[index].source, name: entries[index].experiment.name)
            if positions?.updateValue(index, forKey: id) != nil { positions = nil }
        }
        var built = Memo(
            attributes: attributes,
            forcedByID: forcedByID,
            experiments: experiments,
            natural: natural,
            entries: entries,
            positions: positions,
            active: [],
            activePositions: []
        )
        built.collectActive()
        memo.withLock { $0 = built }
        return built
    }

    /// The entries of the newest evaluation (``entries()``, which a refresh of
    /// the manager runs), without evaluating again; `nil` before the first.
    /// What `lab serve` builds from right after its refresh: evaluating
    /// every source a second time would find the same.
    public var latestEntries: [DebugEntry]? {
        memo.withLock { $0?.entries }
    }

    /// Forced variants that name an experiment or variant the sources no longer have.
    public func staleForcedVariants() throws -> [StaleForcedVariant] {
        let forcedVariants = try store.forcedVariants()
        return forcedVariants.compactMap { forcedVariant in
            guard let source = sources.first(where: { $0.name == forcedVariant.source }) else {
                return StaleForcedVariant(
                    forcedVariant: forcedVariant,
                    reason: "source \"\(forcedVariant.source)\" is not loaded"
                )
            }
            guard let experiment = source.experiment(named: forcedVariant.experiment) else {
                return StaleForcedVariant(
                    forcedVariant: forcedVariant,
                    reason: "source \"\(forcedVariant.source)\" has no experiment \"\(forcedVariant.experiment)\""
                )
            }
            if let variant = forcedVariant.variant, experiment.variant(named: variant) == nil {
                return StaleForcedVariant(
                    forcedVariant: forcedVariant,
                    reason: "experiment \"\(forcedVariant.experiment)\" has no variant \"\(variant)\""
                )
            }
            return nil
        }
    }

    /// Forces `variant` of `experiment` for `scope`; `Inactive` deactivates it instead.
    /// Names that differ only in case from one variant (or `Inactive`) are
    /// taken as it, and so is the short name the console shows for one
    /// variant (`VariantName/shown(_:under:)`).
    /// - Parameters:
    ///   - variant: the variant, or `Inactive`.
    ///   - experiment: the experiment, as a person typed it.
    ///   - source: the source it is in, when the person said; needed only
    ///     when two sources have an experiment of that name.
    ///   - scope: whom it applies to.
    ///   - tester: who forces it, recorded with it.
    ///   - time: when, recorded with it: the newest wins among equal scopes.
    /// - Returns: the forced variant stored, with the names as the catalog spells them.
    @discardableResult
    public func force(
        variant: String,
        of experiment: String,
        in source: String? = nil,
        scope: Scope = .everyone,
        tester: String? = nil,
        at time: Date? = nil
    ) throws -> ForcedVariant {
        let (sourceName, found) = try locate(experiment: experiment, in: source)
        let choices =
            found.variants.map(\.name) + (found.variant(named: Self.inactiveChoice) == nil ? [Self.inactiveChoice] : [])
        var match = NameMatch.find(variant, in: choices)
        if case .missing(let suggestions) = match {
            // The short name the console shows (`Blue` for `ButtonColorBlue`) is taken too, when it names one.
            switch VariantName.find(variant, among: found.variants.map(\.name), of: found.name) {
            case .found(let name): match = .found(name)
            case .missing(let short): match = .missing(suggestions: Array((short + suggestions).prefix(3)))
            }
        }
        switch match {
        case .found(let name):
            let isInactive = name == Self.inactiveChoice && found.variant(named: name) == nil
            let forcedVariant = ForcedVariant(
                source: sourceName,
                experiment: found.name,
                variant: isInactive ? nil : name,
                scope: scope,
                tester: tester,
                forcedAt: time
            )
            try store.setForcedVariant(forcedVariant)
            return forcedVariant
        case .missing(let suggestions):
            throw DebugSourceError.unknownVariant(
                variant,
                experiment: found.name,
                known: choices,
                suggestions: suggestions
            )
        }
    }

    /// Forces `experiment` inactive for `scope`: those users get its baseline.
    public func forceInactive(
        experiment: String,
        in source: String? = nil,
        scope: Scope = .everyone,
        tester: String? = nil,
        at time: Date? = nil
    ) throws {
        let (sourceName, found) = try locate(experiment: experiment, in: source)
        try store.setForcedVariant(
            ForcedVariant(
                source: sourceName,
                experiment: found.name,
                variant: nil,
                scope: scope,
                tester: tester,
                forcedAt: time
            )
        )
    }

    /// Unforces `experiment` for `scope`, so its source decides again there.
    ///
    /// Works for stale forced variants too, as long as the name is
    /// unambiguous; names are matched as ``locate(experiment:in:)`` matches them.
    /// - Returns: the forced variant dropped.
    @discardableResult
    public func unforce(
        experiment: String,
        in source: String? = nil,
        scope: Scope = .everyone
    ) throws
        -> ForcedVariant
    {
        let forcedVariants = try store.forcedVariants()
        let sourceName = try source.map { try resolve(source: $0, alsoAmong: forcedVariants.map(\.source)) }
        let candidates = forcedVariants.filter { sourceName == nil || $0.source == sourceName }
        var wanted = experiment
        switch NameMatch.find(experiment, in: Array(Set(candidates.map(\.experiment)))) {
        case .found(let name): wanted = name
        case .missing:
            // Not forced: say how the name would read if it were.
            if case .missing(let suggestions) = NameMatch.find(
                experiment,
                in: sources.filter { sourceName == nil || $0.name == sourceName }.flatMap { $0.experiments.map(\.name) }
            ), !suggestions.isEmpty {
                throw DebugSourceError.unknownExperiment(experiment, source: sourceName, suggestions: suggestions)
            }
        }
        let ofExperiment = candidates.filter { $0.experiment == wanted }
        let matching = ofExperiment.filter { $0.scope == scope }
        guard !matching.isEmpty else {
            throw DebugSourceError.noRequest(
                experiment: wanted,
                source: sourceName,
                scope: scope,
                otherScopes: ofExperiment.map(\.scope)
            )
        }
        if matching.count > 1 {
            throw DebugSourceError.ambiguous(experiment: wanted, sources: matching.map(\.source))
        }
        try store.removeForcedVariant(source: matching[0].source, experiment: wanted, scope: scope)
        return matching[0]
    }

    /// Drops every forced variant, or those of one source, of one scope, or of both.
    /// - Returns: the source's name as the sources spell it, and the forced variants dropped.
    @discardableResult
    public func reset(
        source: String? = nil,
        scope: Scope? = nil
    ) throws -> (
        source: String?, dropped: [ForcedVariant]
    ) {
        let forcedVariants = try store.forcedVariants()
        let sourceName = try source.map { try resolve(source: $0, alsoAmong: forcedVariants.map(\.source)) }
        let dropped = forcedVariants.filter {
            (sourceName == nil || $0.source == sourceName) && (scope == nil || $0.scope == scope)
        }
        try store.removeForcedVariants(source: sourceName, scope: scope)
        return (sourceName, dropped)
    }

    /// The name of the wrapped source a person meant: the name, or the one
    /// that differs only in case; others are refused with the nearest names.
    /// - Parameters:
    ///   - source: the name as a person typed it.
    ///   - others: names that count too (a forced variant's source
    ///     that is no longer loaded can still be unforced).
    public func resolve(source: String, alsoAmong others: [String] = []) throws -> String {
        var names = sources.map(\.name)
        for name in others where !names.contains(name) { names.append(name) }
        switch NameMatch.find(source, in: names) {
        case .found(let name): return name
        case .missing(let suggestions):
            throw DebugSourceError.unknownSource(source, known: names, suggestions: suggestions)
        }
    }

    public func update() async throws {
        for source in sources { try await source.update() }
    }

    /// Forgets every wrapped source's stabilization, so draws and new
    /// experiments flow again: a debug action (`lab stabilize --undo`).
    public func undoStabilization() throws {
        for source in leaves { try store.unstabilize(source: source.name) }
    }

    public func stabilize() throws {
        for source in sources { try source.stabilize() }
    }

    /// When every wrapped source is stabilized, the latest of those times.
    public func stabilization() throws -> Date? {
        var latest: Date?
        for source in sources {
            guard let date = try source.stabilization() else { return nil }
            latest = max(latest ?? date, date)
        }
        return latest
    }

    /// Finds the source of `experiment`, which must be unambiguous when `source` is `nil`.
    ///
    /// A name that differs only in case from one experiment is taken as it;
    /// an unknown one is refused with the nearest names suggested.
    public func locate(experiment: String, in source: String? = nil) throws -> (String, Experiment) {
        let sourceName = try source.map { try resolve(source: $0) }
        let candidates = sources.filter { sourceName == nil || $0.name == sourceName }
        let names = candidates.flatMap { $0.experiments.map(\.name) }
        var wanted = experiment
        switch NameMatch.find(experiment, in: names) {
        case .found(let name): wanted = name
        case .missing(let suggestions):
            throw DebugSourceError.unknownExperiment(experiment, source: sourceName, suggestions: suggestions)
        }
        let matches = candidates.compactMap { candidate in
            candidate.experiment(named: wanted).map { (candidate.name, $0) }
        }
        guard let first = matches.first else {
            throw DebugSourceError.unknownExperiment(experiment, source: sourceName, suggestions: [])
        }
        if matches.count > 1 {
            throw DebugSourceError.ambiguous(experiment: experiment, sources: matches.map(\.0))
        }
        return first
    }
}
