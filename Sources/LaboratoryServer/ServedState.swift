import Foundation
import GrowthBook
import Laboratory
import NIOCore

/// Everything `lab serve` answers from, built once per change of the state
/// file: each key's ``ServedFlag`` for this device, the GrowthBook SDK
/// payload and its ETag, and the shared features an OFREP request's context
/// is evaluated against. Every client without a context sees the same thing,
/// so most requests cost a lookup, not an evaluation.
///
/// A rebuild works in proportion to what changed, not to the catalogs: the
/// keys and their owners are kept while the catalogs stay as they were, and
/// only the keys whose assignment, active variant or forced variants moved
/// get a new flag and a new feature; a force among 10,000 experiments writes
/// one feature and hashes nothing else again.
package struct ServedState: Sendable {
    /// Flags by assignment key, as this device gets them.
    package let flags: Flags
    /// Keys in order, for bulk answers.
    package var keys: [String] { layout.keys }
    /// The GrowthBook SDK payload (`GET /api/features/…`): a view into
    /// ``featuresEvent``, so it is written once and never copied.
    package let payloadBuffer: ByteBuffer
    /// The payload's bytes, for readers that want `Data`.
    package var payload: Data { Data(payloadBuffer.readableBytesView) }
    /// The payload as a server-sent `features` event, built once and shared
    /// by every stream: a buffer written to many connections is not copied.
    package var featuresEvent: ByteBuffer { written.event }
    /// The event as written, with where each device feature starts in it,
    /// for the next state to copy what did not change.
    private let written: GrowthBookPayloadWriter.FeaturesEvent
    /// The payload's ETag, quoted; it does not depend on `dateUpdated`.
    package let payloadTag: String
    /// The payload's `dateUpdated` (ISO 8601), as written into it.
    let dateUpdated: String
    /// The bulk OFREP answer's ETag for a request without a context, quoted.
    package let flagsTag: String
    /// Experiment name → the source and the experiment, for events that apps post.
    var experiments: [String: (source: String, experiment: Experiment)] { layout.experiments }
    /// The experiments a person forced, for anyone, by name: an exposure
    /// an app posts is marked forced when its user's variant was.
    let forcing: [String: DebugEntry]
    /// Every name an SDK reports for a variation that is not the variant's
    /// own (a GrowthBook `meta` key such as `"ctl"`), by experiment: alias → variant.
    let variantAliases: [String: [String: String]]
    /// Catalog key → its scoped forced variants, the first to win first:
    /// what an OFREP context in one of the scopes gets.
    private let scopedByKey: [String: [GrowthBookPayloadWriter.ScopedChoice]]
    /// The sources that pass features through, as given.
    private let shared: [SharedFeatures]
    /// The keys, their owners and the experiments by name.
    private let layout: ServedKeys
    /// What this state was built from, for the next one to tell what changed.
    private let entries: [DebugEntry]
    private let snapshot: AssignmentsSnapshot
    /// Whether the snapshot's assignments are sorted by key, as its type
    /// promises: the next rebuild's walk over them relies on it.
    private let assignmentsSorted: Bool

    /// Flags by key: a position in the keys, then the flag there (a device
    /// key's in its feature, in the order of ``ServedKeys/deviceKeys``).
    package struct Flags: Sendable {
        fileprivate let index: [String: Int]
        fileprivate let features: [Feature]
        fileprivate let shared: [(flag: ServedFlag?, hash: UInt64)]

        /// The flag of `key`, or `nil` for a key nobody assigns (or a shared
        /// feature that decides nothing for this device).
        package subscript(key: String) -> ServedFlag? {
            guard let position = index[key] else { return nil }
            return position < features.count ? features[position].flag : shared[position - features.count].flag
        }
    }

    /// A device key's flag and its feature as a payload member, with what
    /// the member was written from and both hashes, so that an unchanged one
    /// is neither written nor hashed again. A reference: a rebuild copies
    /// the list of 20,000 by retaining each once.
    fileprivate final class Feature: Sendable {
        let flag: ServedFlag
        let flagHash: UInt64
        let experiment: Experiment?
        let scoped: [GrowthBookPayloadWriter.ScopedChoice]
        let member: String
        let hash: UInt64

        /// The feature of `flag`, its member taken from `old` when `old` was
        /// written from the same flag, experiment and scoped choices
        /// (experiments that did not change share their storage, so comparing
        /// them is cheap), written and hashed otherwise.
        init(flag: ServedFlag, experiment: Experiment?, scoped: [GrowthBookPayloadWriter.ScopedChoice], old: Feature?) {
            self.flag = flag
            self.experiment = experiment
            self.scoped = scoped
            var flagHash = FNV1a()
            flag.hash(into: &flagHash)
            self.flagHash = flagHash.value
            if let old, old.flag == flag, old.scoped == scoped, old.experiment == experiment {
                (member, hash) = (old.member, old.hash)
            } else {
                member = GrowthBookPayloadWriter.member(
                    key: flag.key,
                    featureText: GrowthBookPayloadWriter.featureText(for: flag, experiment: experiment, scoped: scoped)
                )
                var hash = FNV1a()
                hash.add(member)
                self.hash = hash.value
            }
        }
    }

    /// - Parameters:
    ///   - entries: every experiment of every source (the debug source's entries).
    ///   - snapshot: what the manager serves this device now.
    ///   - shared: the features of the sources that have them (GrowthBook),
    ///     forced variants written in, in source priority order.
    ///   - previous: the state this one replaces: what did not change is
    ///     taken from it, and when the content is the same, its payload (and
    ///     `dateUpdated`) is kept.
    package init(
        entries: [DebugEntry],
        snapshot: AssignmentsSnapshot,
        shared: [SharedFeatures] = [],
        previous: ServedState? = nil,
        now: Date = Date()
    ) {
        let layout =
            if let previous, previous.layout.fits(entries, shared: shared, snapshot: snapshot) {
                previous.layout
            } else {
                ServedKeys(entries, shared: shared, snapshot: snapshot)
            }
        // The previous state, when its keys are these keys at the same positions.
        let aligned = previous.flatMap { $0.layout === layout ? $0 : nil }
        let scopedByKey = Self.scopedChoices(entries, layout: layout)
        self.scopedByKey = scopedByKey
        self.shared = shared
        self.layout = layout
        self.entries = entries
        self.snapshot = snapshot
        variantAliases = Self.aliases(shared)
        var forcing: [String: DebugEntry] = [:]
        for index in entries.indices where !entries[index].forcedVariants.isEmpty {
            if forcing[entries[index].experiment.name] == nil {
                forcing[entries[index].experiment.name] = entries[index]
            }
        }
        self.forcing = forcing

        let deviceCount = layout.deviceKeys.count
        var changed: [Bool]
        var features: [Feature]
        if let aligned {
            let walk = Self.changedKeys(from: aligned, to: entries, snapshot, layout: layout)
            changed = walk.changed
            // The same keys in the same order as sorted ones are sorted: 20,000 comparisons fewer.
            assignmentsSorted =
                aligned.assignmentsSorted && walk.sameKeys || Self.isSorted(snapshot.assignments)
            features = aligned.flags.features
        } else {
            changed = [Bool](repeating: true, count: layout.keys.count)
            assignmentsSorted = Self.isSorted(snapshot.assignments)
            features = []
            features.reserveCapacity(deviceCount)
        }
        // The active variants are looked up for changed keys only: a few
        // are found by a walk, many through an index built once.
        var activeIndex: [ExperimentID: ActiveVariant]?
        if changed[..<deviceCount].lazy.filter({ $0 }).count > 8 {
            activeIndex = Dictionary(
                snapshot.active.map { ($0.experimentID, $0) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        func active(_ id: ExperimentID) -> ActiveVariant? {
            if let activeIndex { return activeIndex[id] }
            let active = snapshot.active
            return active.firstIndex { $0.source == id.source && $0.experiment.name == id.name }.map { active[$0] }
        }
        func deviceFlag(_ key: String, owner: DebugEntry?) -> ServedFlag {
            Self.deviceFlag(key, owner: owner, snapshot: snapshot, active: active)
        }
        for position in 0..<deviceCount where changed[position] {
            let key = layout.deviceKeys[position]
            let flag = deviceFlag(key, owner: entries[layout.owners[position]])
            // After a catalog changed, a key's old feature is found by its key.
            let old =
                if let aligned { aligned.flags.features[position] } else {
                    previous.flatMap { previous in
                        previous.layout.index[key].flatMap {
                            $0 < previous.flags.features.count ? previous.flags.features[$0] : nil
                        }
                    }
                }
            let feature = Feature(
                flag: flag,
                experiment: layout.experiments[flag.experiment ?? ""]?.experiment,
                scoped: scopedByKey[key] ?? [],
                old: old
            )
            if aligned != nil { features[position] = feature } else { features.append(feature) }
        }
        // Shared keys are evaluated on every rebuild: their source's features
        // are new each time (forced variants written in).
        var sharedFlags: [(flag: ServedFlag?, hash: UInt64)] = []
        for key in layout.sharedKeys {
            let source = shared[layout.sharedIndex[key]!]
            var flag: ServedFlag?
            if let evaluation = source.evaluate(key) {
                if let assignment = snapshot.assignment(for: key), assignment.source == source.source {
                    // The device's own value: its sticky buckets and stabilization count.
                    var own = deviceFlag(key, owner: nil)
                    if !own.forced, evaluation.decision != .defaultValue { own.reason = ServedFlag.Reason(evaluation) }
                    flag = own
                } else {
                    flag = ServedFlag(key: key, source: source.source, evaluation: evaluation)
                }
            }
            var hash = FNV1a()
            flag?.hash(into: &hash)
            sharedFlags.append((flag, flag == nil ? 0 : hash.value))
        }
        flags = Flags(index: layout.index, features: features, shared: sharedFlags)
        var flagsHash = FNV1a()
        for index in features.indices { flagsHash.add(word: features[index].flagHash) }
        for index in sharedFlags.indices { flagsHash.add(word: sharedFlags[index].hash) }
        flagsTag = flagsHash.tag

        let more = GrowthBookPayloadWriter.passedThroughMembers(shared) { layout.sharedIndex[$0] != nil }
        let tail = GrowthBookPayloadWriter.tail(shared)
        var contentHash = FNV1a()
        for index in features.indices { contentHash.add(word: features[index].hash) }
        for member in more { contentHash.add(member) }
        contentHash.add(tail)
        payloadTag = contentHash.tag
        if let previous, previous.payloadTag == payloadTag {
            payloadBuffer = previous.payloadBuffer
            written = previous.written
            dateUpdated = previous.dateUpdated
        } else {
            // The format style is a value: no formatter (and its calendar) made per rebuild.
            dateUpdated = Date.ISO8601FormatStyle().format(now)
            written = GrowthBookPayloadWriter.featuresEvent(
                members: features.map(\.member),
                more: more,
                tail: tail,
                dateUpdated: dateUpdated,
                reusing: aligned?.written,
                unchanged: { !changed[$0] }
            )
            payloadBuffer = written.event.getSlice(at: written.payload.lowerBound, length: written.payload.count)!
        }
    }

    /// The keys whose flag or feature may differ from `previous`'s, by
    /// position: those whose assignment moved, whose active variant changed
    /// how it was decided, or whose experiments' forced variants (and with
    /// them the scoped choices) or the device's attributes changed; shared
    /// keys always.
    private static func changedKeys(
        from previous: ServedState,
        to entries: [DebugEntry],
        _ snapshot: AssignmentsSnapshot,
        layout: ServedKeys
    ) -> (changed: [Bool], sameKeys: Bool) {
        var changed = [Bool](repeating: false, count: layout.keys.count)
        for position in layout.deviceKeys.count..<layout.keys.count { changed[position] = true }
        func mark(_ key: String) {
            if let position = layout.index[key] { changed[position] = true }
        }
        func mark(_ experiment: Experiment) { experiment.keys.forEach(mark) }

        // Assignments come sorted by key: one walk over both finds every key that moved.
        let (old, new) = (previous.snapshot.assignments, snapshot.assignments)
        var (i, j) = (0, 0)
        var sameKeys = old.count == new.count
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i].key == new[j].key {
                // Field by field, in place: `!=` on the whole assignment, a generic
                // from another module, copied both of each of 20,000 pairs.
                if old[i].value != new[j].value || old[i].variant != new[j].variant
                    || old[i].experiment != new[j].experiment || old[i].source != new[j].source
                {
                    mark(new[j].key)
                }
                (i, j) = (i + 1, j + 1)
            } else if j == new.count || (i < old.count && old[i].key < new[j].key) {
                sameKeys = false
                mark(old[i].key)
                i += 1
            } else {
                sameKeys = false
                mark(new[j].key)
                j += 1
            }
        }
        // The same keys in the same order as sorted ones are sorted: only other keys need looking at.
        if !previous.assignmentsSorted || (!sameKeys && !isSorted(new)) {
            return ([Bool](repeating: true, count: layout.keys.count), sameKeys)
        }

        // A flag's reason and forcing come from its experiment's active variant.
        // Read in place, by index: iterating would copy each active variant.
        let (was, now) = (previous.snapshot.active, snapshot.active)
        let paired = IdentityPairing.pair(
            oldCount: was.count,
            newCount: now.count,
            old: { was[$0].experimentID },
            new: { now[$0].experimentID }
        )
        for (old, new) in paired.pairs where was[old].forced != now[new].forced || was[old].basis != now[new].basis {
            mark(now[new].experiment)
        }
        for old in paired.oldOnly { mark(was[old].experiment) }
        for new in paired.newOnly { mark(now[new].experiment) }

        // A key nobody is assigned shows whether its owner is forced
        // Inactive, and a key's scoped choices come from its experiments'
        // forced variants: both change only with those.
        // Read in place: copying 10,000 entries to look at one field each is what this avoids.
        let before = previous.entries
        for index in entries.indices {
            if before[index].forcedVariants.isEmpty && entries[index].forcedVariants.isEmpty { continue }
            if before[index].forcedVariants != entries[index].forcedVariants
                || before[index].attributes != entries[index].attributes
            {
                mark(entries[index].experiment)
            }
        }
        return (changed, sameKeys)
    }

    private static func isSorted(_ assignments: [Assignment]) -> Bool {
        assignments.indices.dropFirst().allSatisfy { assignments[$0 - 1].key < assignments[$0].key }
    }

    /// Each catalog key's scoped forced variants, the first to win first.
    private static func scopedChoices(
        _ entries: [DebugEntry],
        layout: ServedKeys
    ) -> [String: [GrowthBookPayloadWriter.ScopedChoice]] {
        var scopedByKey: [String: [GrowthBookPayloadWriter.ScopedChoice]] = [:]
        for index in entries.indices where !entries[index].forcedVariants.isEmpty {
            let entry = entries[index]
            guard !layout.sharedSources.contains(entry.source) else { continue }
            for forced in entry.scopedForcedVariants {
                for key in entry.experiment.keys where layout.sharedIndex[key] == nil {
                    scopedByKey[key, default: []].append(.init(forcedVariant: forced, experiment: entry.experiment))
                }
            }
        }
        for key in scopedByKey.keys { scopedByKey[key]!.sort { $0.forcedVariant.precedes($1.forcedVariant) } }
        return scopedByKey
    }

    /// What `key` gives the user an OFREP request's `context` describes
    /// (`targetingKey` as `id`, the rest as attributes); this device's flag
    /// when the context is empty or the key belongs to a catalog, whose
    /// variants are this device's.
    package func flag(_ key: String, context: JSONValue?) -> ServedFlag? {
        guard let attributes = Self.attributes(of: context) else { return flags[key] }
        guard let source = layout.sharedIndex[key].map({ shared[$0] }) else {
            return scopedFlag(key, attributes: attributes) ?? flags[key]
        }
        return source.evaluate(key, attributes: attributes).map {
            ServedFlag(key: key, source: source.source, evaluation: $0)
        }
    }

    /// A catalog key's flag for a user in the scope of one of its forced
    /// variants (`STATIC`, or `DISABLED` for Inactive), or `nil` for a user in none.
    private func scopedFlag(_ key: String, attributes: JSONValue) -> ServedFlag? {
        guard let choices = scopedByKey[key], let members = attributes.members else { return nil }
        let user = Scope.comparable(members)
        guard let choice = choices.first(where: { $0.forcedVariant.scope.matches(user) }) else { return nil }
        let experiment = choice.experiment
        let variant = choice.forcedVariant.variant ?? experiment.baseline
        return ServedFlag(
            key: key,
            value: experiment.variant(named: variant)?.assignments[key] ?? .string(""),
            variant: variant,
            experiment: experiment.name,
            source: choice.forcedVariant.source,
            forced: true,
            reason: choice.forcedVariant.variant == nil ? .disabled : .static
        )
    }

    /// Every source's GrowthBook `meta` keys that differ from the variant names.
    private static func aliases(_ shared: [SharedFeatures]) -> [String: [String: String]] {
        var aliases: [String: [String: String]] = [:]
        for source in shared {
            aliases.merge(source.variantAliases()) { mine, _ in mine }
        }
        return aliases
    }

    /// A context's attributes for GrowthBook, or `nil` for no context or an empty one.
    static func attributes(of context: JSONValue?) -> JSONValue? {
        guard let members = context?.members, !members.isEmpty else { return nil }
        var attributes = members.filter { $0.key != "targetingKey" }
        if let id = context?["targetingKey"] {
            attributes.removeAll { $0.key == "id" }
            attributes.append(JSONValue.Member("id", id))
        }
        return .object(attributes)
    }

    /// A key as the manager serves it to this device: the active variant's
    /// value, or the baseline's when no experiment with the key is active.
    private static func deviceFlag(
        _ key: String,
        owner: DebugEntry?,
        snapshot: AssignmentsSnapshot,
        active: (ExperimentID) -> ActiveVariant?
    ) -> ServedFlag {
        if let assignment = snapshot.assignment(for: key) {
            let active = active(assignment.experimentID)
            return ServedFlag(
                key: key,
                value: assignment.value,
                variant: assignment.variant,
                experiment: assignment.experiment,
                source: assignment.source,
                forced: active?.forced ?? false,
                reason: reason(of: active)
            )
        }
        let experiment = owner?.experiment
        let baseline = experiment.flatMap { $0.variant(named: $0.baseline) }
        let disabled = owner?.isForced == true && owner?.forcedVariant?.variant == nil
        return ServedFlag(
            key: key,
            value: baseline?.assignments[key] ?? .string(""),
            variant: experiment?.baseline ?? "",
            experiment: experiment?.name,
            source: owner?.source ?? "",
            forced: disabled,
            reason: disabled ? .disabled : .default
        )
    }

    private static func reason(of active: ActiveVariant?) -> ServedFlag.Reason {
        guard let active else { return .split }
        if active.forced { return .static }
        switch active.basis {
        case .drawn, .hashed: return .split
        case .whitelisted, .resolved, .growthBook: return .targetingMatch
        case .forced: return .static
        }
    }

    /// A strong ETag: FNV-1a (64 bits) of the text's UTF-8, quoted.
    static func tag(_ text: String) -> String {
        var hash = FNV1a()
        hash.add(text)
        return hash.tag
    }
}
