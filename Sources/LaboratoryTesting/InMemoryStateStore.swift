import Foundation
import Laboratory
import Synchronization

/// A ``StateStore`` in memory: one device, gone when released. For tests,
/// and for apps that want no persistence.
public final class InMemoryStateStore: StateStore, Sendable {
    private struct State {
        var device: Device?
        var choices: [String: [String: StoredChoice]] = [:]
        var stabilized: [String: Date] = [:]
        var requests: [String: DebugRequest] = [:]
        var active: Set<Assignment> = []
        var attributes: [String: String] = [:]
        var payloads: [String: StoredPayload] = [:]
        var revision: Int64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func device(candidate: Device) throws -> Device {
        state.withLock { state in
            if let device = state.device { return device }
            state.device = candidate
            state.revision += 1
            return candidate
        }
    }

    public func resolveChoices(
        source: String,
        experiments: [String],
        at time: Date,
        decide: (String, StoredChoice?) -> ChoiceDecision
    ) throws -> [String: StoredChoice] {
        state.withLock { state in
            var choices = state.choices[source] ?? [:]
            let before = choices
            let listed = Set(experiments)
            choices = choices.filter { listed.contains($0.key) }
            for experiment in experiments {
                switch decide(experiment, choices[experiment]) {
                case .keep: break
                case .choose(let variant): choices[experiment] = StoredChoice(variant: variant, madeAt: time)
                case .forget: choices[experiment] = nil
                }
            }
            if choices != before {
                state.choices[source] = choices
                state.revision += 1
            }
            return choices
        }
    }

    public func choices(source: String) throws -> [String: StoredChoice] {
        state.withLock { $0.choices[source] ?? [:] }
    }

    public func stabilization(source: String) throws -> Date? {
        state.withLock { $0.stabilized[source] }
    }

    public func unstabilize(source: String) throws {
        state.withLock { state in
            guard state.stabilized.removeValue(forKey: source) != nil else { return }
            state.revision += 1
        }
    }

    public func stabilize(source: String, at time: Date) throws {
        state.withLock { state in
            guard state.stabilized[source] == nil else { return }
            state.stabilized[source] = time
            state.revision += 1
        }
    }

    public func debugRequests() throws -> [DebugRequest] {
        state.withLock { state in
            state.requests.values.sorted { ($0.source, $0.experiment) < ($1.source, $1.experiment) }
        }
    }

    public func setDebugRequest(_ request: DebugRequest) throws {
        state.withLock { state in
            let id = Self.requestID(request.source, request.experiment)
            guard state.requests[id] != request else { return }
            state.requests[id] = request
            state.revision += 1
        }
    }

    public func removeDebugRequest(source: String, experiment: String) throws {
        state.withLock { state in
            if state.requests.removeValue(forKey: Self.requestID(source, experiment)) != nil {
                state.revision += 1
            }
        }
    }

    public func removeDebugRequests(source: String?) throws {
        state.withLock { state in
            let before = state.requests.count
            state.requests = state.requests.filter { source != nil && $0.value.source != source }
            if state.requests.count != before { state.revision += 1 }
        }
    }

    public func applyDebugRequests(_ requests: [DebugRequest], replacing: Bool) throws {
        state.withLock { state in
            var after = replacing ? [:] : state.requests
            for request in requests { after[Self.requestID(request.source, request.experiment)] = request }
            guard after != state.requests else { return }
            state.requests = after
            state.revision += 1
        }
    }

    public func payload(source: String) throws -> StoredPayload? {
        state.withLock { $0.payloads[source] }
    }

    public func setPayload(_ payload: StoredPayload, source: String) throws {
        state.withLock { state in
            guard state.payloads[source] != payload else { return }
            state.payloads[source] = payload
            state.revision += 1
        }
    }

    public func attributeOverrides() throws -> [String: String] {
        state.withLock { $0.attributes }
    }

    public func setAttributeOverrides(_ attributes: [String: String]) throws {
        state.withLock { state in
            guard state.attributes != attributes else { return }
            state.attributes = attributes
            state.revision += 1
        }
    }

    public func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
        state.withLock { state in
            let new = Set(assignments)
            let change = ActiveSetChange.between(state.active, new)
            if !change.isEmpty {
                state.active = new
                state.revision += 1
            }
            return change
        }
    }

    public func revision() throws -> Int64 {
        state.withLock { $0.revision }
    }

    private static func requestID(_ source: String, _ experiment: String) -> String {
        "\(source)\u{0}\(experiment)"
    }
}
