import Foundation
import GrowthBook
import Laboratory
import NIOCore

/// Everything `lab serve` answers from, built once per change of the state
/// file: each key's ``ServedFlag`` for this device, the GrowthBook SDK
/// payload and its ETag, and the shared features an OFREP request's context
/// is evaluated against. Every client without a context sees the same thing,
/// so most requests cost a lookup, not an evaluation.
package struct ServedState: Sendable {
    /// Flags by assignment key, as this device gets them.
    package let flags: [String: ServedFlag]
    /// Keys in order, for bulk answers.
    package let keys: [String]
    /// The GrowthBook SDK payload (`GET /api/features/…`, `features` events).
    package let payload: Data
    /// The payload as a server-sent `features` event, built once and shared
    /// by every stream: a buffer written to many connections is not copied.
    package let featuresEvent: ByteBuffer
    /// The payload's ETag, quoted; it does not depend on `dateUpdated`.
    package let payloadTag: String
    /// The payload's `dateUpdated` (ISO 8601), as written into it.
    let dateUpdated: String
    /// The bulk OFREP answer's ETag for a request without a context, quoted.
    package let flagsTag: String
    /// Experiment name → the source and the experiment, for events that apps post.
    let experiments: [String: (source: String, experiment: Experiment)]
    /// The experiments a person forced, for anyone, by name: an exposure
    /// an app posts is marked forced when its user's variant was.
    let forcing: [String: DebugEntry]
    /// Every name an SDK reports for a variation that is not the variant's
    /// own (a GrowthBook `meta` key such as `"ctl"`), by experiment: alias → variant.
    let variantAliases: [String: [String: String]]
    /// Catalog key → its scoped forced variants, the first to win first:
    /// what an OFREP context in one of the scopes gets.
    private let scopedByKey: [String: [GrowthBookPayloadWriter.ScopedChoice]]
    /// Key → the shared features that decide it for any user (passed through).
    private let sharedByKey: [String: SharedFeatures]
    /// Each device key's feature in the payload, with what it was written from.
    private let featureTexts: [String: FeatureText]

    /// A device key's feature as JSON text, with what it was written from.
    private struct FeatureText: Sendable {
        var flag: ServedFlag
        var experiment: Experiment?
        var scoped: [GrowthBookPayloadWriter.ScopedChoice]
        var text = ""

        /// This with its text written.
        func written() -> FeatureText {
            var written = self
            written.text = GrowthBookPayloadWriter.featureText(for: flag, experiment: experiment, scoped: scoped)
            return written
        }

        /// Whether this text is what `source` would write: the same flag,
        /// experiment and scoped choices (experiments that did not change
        /// share their storage, so comparing them is cheap).
        func isWritten(from source: FeatureText) -> Bool {
            flag == source.flag && scoped == source.scoped && experiment == source.experiment
        }
    }

    /// - Parameters:
    ///   - entries: every experiment of every source (the debug source's entries).
    ///   - snapshot: what the manager serves this device now.
    ///   - shared: the features of the sources that have them (GrowthBook),
    ///     forced variants written in, in source priority order.
    ///   - previous: the state this one replaces; when the content is the
    ///     same, its payload (and `dateUpdated`) is kept.
    package init(
        entries: [DebugEntry],
        snapshot: AssignmentsSnapshot,
        shared: [SharedFeatures] = [],
        previous: ServedState? = nil,
        now: Date = Date()
    ) {
        let sharedSources = Set(shared.map(\.source))
        var experiments: [String: (source: String, experiment: Experiment)] = [:]
        // Each key's owner as a position in `entries`: thousands of entries are not copied.
        var owners: [String: Int] = [:]
        var deviceKeys: [String] = []
        // Entries are read in place, by index: iterating would copy each one.
        for index in entries.indices {
            let (source, experiment) = (entries[index].source, entries[index].experiment)
            if experiments[experiment.name] == nil { experiments[experiment.name] = (source, experiment) }
            guard !sharedSources.contains(source) else { continue }
            for key in experiment.keys where owners[key] == nil {
                owners[key] = index
                deviceKeys.append(key)
            }
        }
        // A key both a catalog and a shared source assign goes to the shared
        // one unless a catalog experiment gives it to this device.
        var sharedByKey: [String: SharedFeatures] = [:]
        var sharedKeys: [String] = []
        for source in shared {
            for key in source.keys where sharedByKey[key] == nil {
                if owners[key] != nil {
                    guard let winner = snapshot.assignment(for: key)?.source, winner == source.source else { continue }
                }
                sharedByKey[key] = source
                sharedKeys.append(key)
            }
        }
        deviceKeys.removeAll { sharedByKey[$0] != nil }
        var scopedByKey: [String: [GrowthBookPayloadWriter.ScopedChoice]] = [:]
        for index in entries.indices where !entries[index].forcedVariants.isEmpty {
            let entry = entries[index]
            guard !sharedSources.contains(entry.source) else { continue }
            for forced in entry.scopedForcedVariants {
                for key in entry.experiment.keys where sharedByKey[key] == nil {
                    scopedByKey[key, default: []].append(.init(forcedVariant: forced, experiment: entry.experiment))
                }
            }
        }
        for key in scopedByKey.keys { scopedByKey[key]!.sort { $0.forcedVariant.precedes($1.forcedVariant) } }
        self.scopedByKey = scopedByKey
        variantAliases = Self.aliases(shared)

        // Indexed once: a rebuild over thousands of keys must not scan the active list per key.
        let activeByExperiment = Dictionary(
            snapshot.active.map { ($0.experimentID, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        func deviceFlag(_ key: String, owner: DebugEntry?) -> ServedFlag {
            Self.deviceFlag(key, owner: owner, snapshot: snapshot, active: activeByExperiment)
        }
        var flags: [String: ServedFlag] = [:]
        flags.reserveCapacity(deviceKeys.count)
        for key in deviceKeys { flags[key] = deviceFlag(key, owner: entries[owners[key]!]) }
        for key in sharedKeys {
            let source = sharedByKey[key]!
            guard let evaluation = source.evaluate(key) else { continue }
            if let assignment = snapshot.assignment(for: key), assignment.source == source.source {
                // The device's own value: its sticky buckets and stabilization count.
                var flag = deviceFlag(key, owner: nil)
                if !flag.forced, evaluation.decision != .defaultValue { flag.reason = ServedFlag.Reason(evaluation) }
                flags[key] = flag
            } else {
                flags[key] = ServedFlag(key: key, source: source.source, evaluation: evaluation)
            }
        }
        self.flags = flags
        keys = deviceKeys + sharedKeys
        self.experiments = experiments
        self.sharedByKey = sharedByKey
        var forcing: [String: DebugEntry] = [:]
        for index in entries.indices where !entries[index].forcedVariants.isEmpty {
            if forcing[entries[index].experiment.name] == nil {
                forcing[entries[index].experiment.name] = entries[index]
            }
        }
        self.forcing = forcing
        // Each device feature is written out again only when what it is
        // written from changed: one force rewrites one feature, not thousands.
        var featureTexts: [String: FeatureText] = [:]
        featureTexts.reserveCapacity(deviceKeys.count)
        var deviceFeatures: [(key: String, text: String)] = []
        deviceFeatures.reserveCapacity(deviceKeys.count)
        for key in deviceKeys {
            let flag = flags[key]!
            let source = FeatureText(
                flag: flag,
                experiment: experiments[flag.experiment ?? ""]?.experiment,
                scoped: scopedByKey[key] ?? []
            )
            let written =
                if let old = previous?.featureTexts[key], old.isWritten(from: source) { old } else { source.written() }
            featureTexts[key] = written
            deviceFeatures.append((key, written.text))
        }
        self.featureTexts = featureTexts
        let contentText = GrowthBookPayloadWriter.contentText(
            deviceFeatures: deviceFeatures,
            shared: shared,
            passedThrough: Set(sharedKeys)
        )
        payloadTag = Self.tag(contentText)
        if let previous, previous.payloadTag == payloadTag {
            payload = previous.payload
            featuresEvent = previous.featuresEvent
            dateUpdated = previous.dateUpdated
        } else {
            dateUpdated = ISO8601DateFormatter().string(from: now)
            payload = GrowthBookPayloadWriter.payload(contentText: contentText, dateUpdated: dateUpdated)
            featuresEvent = Self.featuresEvent(payload)
        }
        var flagsHash = FNV1a()
        for key in keys { flags[key]?.hash(into: &flagsHash) }
        flagsTag = flagsHash.tag
    }

    private static func featuresEvent(_ payload: Data) -> ByteBuffer {
        var buffer = ByteBuffer(string: "event: features\ndata: ")
        buffer.writeBytes(payload)
        buffer.writeString("\n\n")
        return buffer
    }

    /// What `key` gives the user an OFREP request's `context` describes
    /// (`targetingKey` as `id`, the rest as attributes); this device's flag
    /// when the context is empty or the key belongs to a catalog, whose
    /// variants are this device's.
    package func flag(_ key: String, context: JSONValue?) -> ServedFlag? {
        guard let attributes = Self.attributes(of: context) else { return flags[key] }
        guard let source = sharedByKey[key] else {
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
        active activeByExperiment: [ExperimentID: ActiveVariant]
    ) -> ServedFlag {
        if let assignment = snapshot.assignment(for: key) {
            let active = activeByExperiment[assignment.experimentID]
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
