import Dispatch
import Foundation

/// Decodes features on other threads while the payload is still being
/// parsed: the parser hands over each feature as soon as it has read it
/// (``JSONValueParser/parse(_:streamingMembersOf:each:)``), and every batch
/// of them is offered to a job, so parsing and decoding share the cores.
///
/// ``finish()`` decodes on the calling thread every batch no job has taken
/// yet and waits only for the ones being decoded, so it never waits for a
/// thread to become free: a payload decoded inside a busy thread pool (an
/// app's async updater) cannot stall on its own jobs.
final class FeatureStreamDecoder: @unchecked Sendable {
    private static let batchSize = 64
    // Touched only by the parsing thread.
    private var pending: [JSONValue.Member] = []
    private var batchCount = 0
    // Shared with the jobs, under the condition's lock.
    private let condition = NSCondition()
    private var untaken: [Int: [JSONValue.Member]] = [:]
    private var decoding = 0
    private var batches: [Int: [GrowthBookFeature]] = [:]

    /// Takes the next feature, in payload order (on the parsing thread).
    func add(_ member: JSONValue.Member) {
        pending.append(member)
        if pending.count == Self.batchSize { offerBatch() }
    }

    private func offerBatch() {
        let number = batchCount
        condition.withLock { untaken[number] = pending }
        pending = []
        batchCount += 1
        DispatchQueue.global().async { self.decode(number) }
    }

    /// Decodes batch `number` unless another thread has taken it.
    private func decode(_ number: Int) {
        guard
            let members = condition.withLock({ () -> [JSONValue.Member]? in
                guard let members = untaken.removeValue(forKey: number) else { return nil }
                decoding += 1
                return members
            })
        else { return }
        let features = members.map { GrowthBookFeature(id: $0.key, json: $0.value) }
        condition.withLock {
            batches[number] = features
            decoding -= 1
            condition.broadcast()
        }
    }

    /// Every feature handed over, decoded, in order.
    func finish() -> [GrowthBookFeature] {
        if !pending.isEmpty { offerBatch() }
        for number in 0..<batchCount { decode(number) }
        condition.lock()
        defer { condition.unlock() }
        while decoding > 0 { condition.wait() }
        return (0..<batchCount).flatMap { batches[$0] ?? [] }
    }
}
