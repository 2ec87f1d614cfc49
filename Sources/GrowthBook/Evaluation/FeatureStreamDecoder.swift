import Dispatch
import Foundation

/// Decodes features on other threads while the payload is still being
/// parsed: the parser hands over each feature as soon as it has read it
/// (``JSONValueParser/parse(_:streamingMembersOf:each:)``), and every batch
/// of them is offered to a job, so parsing and decoding share the cores.
///
/// ``finish()`` decodes on the calling thread every batch no job has taken
/// yet, so what is left to wait for is the batches being decoded and jobs
/// that will find nothing to do; once it returns no job is left holding
/// the payload's values.
final class FeatureStreamDecoder: @unchecked Sendable {
    private static let batchSize = 64
    // Touched only by the parsing thread.
    private var pending: [JSONValue.Member] = []
    private var batchCount = 0
    // Shared with the jobs, under the lock.
    private let lock = NSLock()
    private var untaken: [Int: [JSONValue.Member]] = [:]
    private var batches: [Int: [GrowthBookFeature]] = [:]
    private let jobs = DispatchGroup()

    /// Takes the next feature, in payload order (on the parsing thread).
    func add(_ member: JSONValue.Member) {
        pending.append(member)
        if pending.count == Self.batchSize { offerBatch() }
    }

    private func offerBatch() {
        let number = batchCount
        lock.withLock { untaken[number] = pending }
        pending = []
        batchCount += 1
        DispatchQueue.global().async(group: jobs) { self.decode(number) }
    }

    /// Decodes batch `number` unless another thread has taken it.
    private func decode(_ number: Int) {
        guard
            let members = lock.withLock({ untaken.removeValue(forKey: number) })
        else { return }
        let features = members.map { GrowthBookFeature(id: $0.key, json: $0.value) }
        lock.withLock { batches[number] = features }
    }

    /// Every feature handed over, decoded, in order.
    func finish() -> [GrowthBookFeature] {
        if !pending.isEmpty { offerBatch() }
        for number in 0..<batchCount { decode(number) }
        jobs.wait()
        return lock.withLock { (0..<batchCount).flatMap { batches[$0] ?? [] } }
    }
}
