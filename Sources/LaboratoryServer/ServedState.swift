import Foundation
import Laboratory

/// Everything `lab serve` answers from, built once per change of the state
/// file: each key's ``ServedFlag``, the GrowthBook SDK payload and its ETag.
/// Every client sees the same thing, so requests cost a lookup, not an evaluation.
public struct ServedState: Sendable {
    /// Flags by assignment key.
    public let flags: [String: ServedFlag]
    /// Keys in order, for bulk answers.
    public let keys: [String]
    /// The GrowthBook SDK payload (`GET /api/features/…`, `features` events).
    public let payload: Data
    /// The payload's ETag, quoted.
    public let payloadTag: String
    /// The bulk OFREP answer's ETag, quoted.
    public let flagsTag: String
    /// Experiment name → the source and the experiment, for events that apps post.
    let experiments: [String: (source: String, experiment: Experiment)]

    /// - Parameters:
    ///   - entries: every experiment of every source (the debug source's entries).
    ///   - snapshot: what the manager serves this device now.
    ///   - revision: the state file's revision; pinned rules carry it as their
    ///     bucket version, so an SDK's sticky bucket from before a change loses.
    public init(entries: [DebugEntry], snapshot: AssignmentsSnapshot, revision: Int64) {
        var flags: [String: ServedFlag] = [:]
        var keys: [String] = []
        var experiments: [String: (source: String, experiment: Experiment)] = [:]
        var owners: [String: DebugEntry] = [:]
        let activeByExperiment = Dictionary(
            snapshot.active.map { ("\($0.source)/\($0.experiment.name)", $0) },
            uniquingKeysWith: { first, _ in first }
        )
        for entry in entries {
            if experiments[entry.experiment.name] == nil {
                experiments[entry.experiment.name] = (entry.source, entry.experiment)
            }
            for key in entry.experiment.keys where owners[key] == nil {
                owners[key] = entry
                keys.append(key)
            }
        }
        for key in keys {
            let owner = owners[key]!
            if let assignment = snapshot.assignment(for: key) {
                let active = activeByExperiment["\(assignment.source)/\(assignment.experiment)"]
                flags[key] = ServedFlag(
                    key: key,
                    value: assignment.value,
                    variant: assignment.variant,
                    experiment: assignment.experiment,
                    source: assignment.source,
                    forced: active?.forced ?? false,
                    reason: Self.reason(of: active)
                )
            } else {
                let baseline = owner.experiment.variant(named: owner.experiment.baseline)
                let disabled = owner.isForced && owner.request?.variant == nil
                flags[key] = ServedFlag(
                    key: key,
                    value: baseline?.assignments[key] ?? .string(""),
                    variant: owner.experiment.baseline,
                    experiment: owner.experiment.name,
                    source: owner.source,
                    forced: disabled,
                    reason: disabled ? .disabled : .default
                )
            }
        }
        self.flags = flags
        self.keys = keys
        self.experiments = experiments
        payload = GrowthBookPayloadWriter.payload(
            flags: keys.map { flags[$0]! },
            experiments: experiments.mapValues(\.experiment),
            revision: revision
        )
        payloadTag = Self.tag(payload)
        flagsTag = Self.tag(Data(keys.map { "\(flags[$0]!)" }.joined(separator: "\n").utf8))
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

    /// A strong ETag: FNV-1a (64 bits) of the bytes, quoted.
    static func tag(_ data: Data) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return "\"" + String(hash, radix: 16) + "\""
    }
}
