import Foundation
import Laboratory
import Synchronization

/// A `StateStore` in memory: one device, gone when released. For tests,
/// and for apps that want no persistence.
public final class InMemoryStateStore: StateStore, Sendable {
    private struct State {
        var device: Device?
        var draws: [String: [String: Draw]] = [:]
        var stabilized: [String: (time: Date, payload: Data?)] = [:]
        var sticky: [String: [String: String]] = [:]
        var forced: [ForcedVariantKey: ForcedVariant] = [:]
        var active: Set<Assignment> = []
        var attributes: [String: String] = [:]
        var wirings: [String: AppWiring] = [:]
        var payloads: [String: StoredPayload] = [:]
        var revision: Int64 = 0
        var deviceRevision: Int64 = 0

        /// Raises both revisions: the device, a draw or a stabilization changed.
        mutating func deviceChanged() {
            revision += 1
            deviceRevision += 1
        }
    }

    private let state = Mutex(State())
    private let signal = ChangeSignal()

    /// An empty store: no device, no draws, nothing forced.
    public init() {}

    /// Announces every call that changed something, as it returns.
    public var changeSignal: ChangeSignal? { signal }

    /// Runs a change, and announces it when it raised the revision.
    private func changing<T: Sendable>(_ body: (inout State) -> T) -> T {
        let (result, changed) = state.withLock { state in
            let before = state.revision
            let result = body(&state)
            return (result, state.revision != before)
        }
        if changed { signal.announce() }
        return result
    }

    public func device(candidate: Device) throws -> Device {
        changing { state in
            if let device = state.device { return device }
            state.device = candidate
            state.deviceChanged()
            return candidate
        }
    }

    public func settleDraws(
        source: String,
        experiments: [String],
        at time: Date,
        decide: (String, Draw?) -> DrawDecision
    ) throws -> [String: Draw] {
        changing { state in
            var draws = state.draws[source] ?? [:]
            let before = draws
            let listed = Set(experiments)
            draws = draws.filter { listed.contains($0.key) }
            for experiment in experiments {
                switch decide(experiment, draws[experiment]) {
                case .keep: break
                case .choose(let variant): draws[experiment] = Draw(variant: variant, drawnAt: time)
                case .forget: draws[experiment] = nil
                }
            }
            if draws != before {
                state.draws[source] = draws
                state.deviceChanged()
            }
            return draws
        }
    }

    public func draws(source: String) throws -> [String: Draw] {
        state.withLock { $0.draws[source] ?? [:] }
    }

    public func stabilization(source: String) throws -> Date? {
        state.withLock { $0.stabilized[source]?.time }
    }

    public func stabilizedPayload(source: String) throws -> Data? {
        state.withLock { $0.stabilized[source]?.payload }
    }

    public func unstabilize(source: String) throws {
        changing { state in
            guard state.stabilized.removeValue(forKey: source) != nil else { return }
            state.deviceChanged()
        }
    }

    public func stabilize(source: String, at time: Date, keeping payload: Data?) throws {
        changing { state in
            guard state.stabilized[source] == nil else { return }
            state.stabilized[source] = (time, payload)
            state.deviceChanged()
        }
    }

    public func forcedVariants() throws -> [ForcedVariant] {
        state.withLock { state in
            state.forced.values.sorted {
                ($0.source, $0.experiment, $0.scope.storedForm) < ($1.source, $1.experiment, $1.scope.storedForm)
            }
        }
    }

    public func setForcedVariant(_ forcedVariant: ForcedVariant) throws {
        changing { state in
            let id = ForcedVariantKey(forcedVariant)
            if let stored = state.forced[id], stored.isSameChoice(as: forcedVariant) { return }
            state.forced[id] = forcedVariant
            state.revision += 1
        }
    }

    public func removeForcedVariant(source: String, experiment: String, scope: Scope) throws {
        changing { state in
            if state.forced.removeValue(forKey: ForcedVariantKey(ExperimentID(source: source, name: experiment), scope))
                != nil
            {
                state.revision += 1
            }
        }
    }

    public func removeForcedVariants(source: String?, scope: Scope?) throws {
        changing { state in
            let before = state.forced.count
            state.forced = state.forced.filter {
                (source != nil && $0.value.source != source) || (scope != nil && $0.value.scope != scope)
            }
            if state.forced.count != before { state.revision += 1 }
        }
    }

    public func applyForcedVariants(_ forcedVariants: [ForcedVariant], replacing: Bool) throws {
        changing { state in
            var after = replacing ? [:] : state.forced
            for forcedVariant in forcedVariants {
                after[ForcedVariantKey(forcedVariant)] = forcedVariant
            }
            guard after != state.forced else { return }
            state.forced = after
            state.revision += 1
        }
    }

    public func payload(source: String) throws -> StoredPayload? {
        state.withLock { $0.payloads[source] }
    }

    public func setPayload(_ payload: StoredPayload, source: String) throws {
        changing { state in
            guard state.payloads[source] != payload else { return }
            state.payloads[source] = payload
            state.revision += 1
        }
    }

    public func stickyBuckets(source: String) throws -> [String: String] {
        state.withLock { $0.sticky[source] ?? [:] }
    }

    public func setStickyBuckets(_ documents: [String: String], source: String) throws {
        changing { state in
            let before = state.sticky[source] ?? [:]
            let after = before.merging(documents) { _, new in new }
            guard after != before else { return }
            state.sticky[source] = after
            state.revision += 1
        }
    }

    public func storedAttributes() throws -> [String: String] {
        state.withLock { $0.attributes }
    }

    public func setStoredAttributes(_ attributes: [String: String]) throws {
        changing { state in
            guard state.attributes != attributes else { return }
            state.attributes = attributes
            state.revision += 1
        }
    }

    public func appWirings() throws -> [AppWiring] {
        state.withLock { $0.wirings.values.sorted { $0.app < $1.app } }
    }

    public func recordAppWiring(_ wiring: AppWiring) throws {
        changing { state in
            guard state.wirings[wiring.app] != wiring else { return }
            state.wirings[wiring.app] = wiring
            state.revision += 1
        }
    }

    public func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
        changing { state in
            let new = Set(assignments)
            let change = ActiveSetChange.between(state.active, new)
            if !change.isEmpty {
                state.active = new
                state.revision += 1
            }
            return change
        }
    }

    public func deviceRevision() throws -> Int64 {
        state.withLock { $0.deviceRevision }
    }

    public func revision() throws -> Int64 {
        state.withLock { $0.revision }
    }

    /// What a forced variant replaces: the one of the same experiment and scope.
    struct ForcedVariantKey: Hashable {
        var experiment: ExperimentID
        var scope: Scope

        init(_ experiment: ExperimentID, _ scope: Scope) {
            self.experiment = experiment
            self.scope = scope
        }

        init(_ forcedVariant: ForcedVariant) {
            self.init(forcedVariant.experimentID, forcedVariant.scope)
        }
    }
}
