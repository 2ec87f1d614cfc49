import Dispatch
import Foundation

/// Decodes features on other threads as they are handed over: while a
/// payload is still being parsed (``JSONValueParser/parse(_:streamingMembersOf:each:)``
/// hands over each feature as soon as it has read it), or all at once
/// (``GrowthBookFeature/index(_:)``). Every full batch is offered to a job.
///
/// ``finish()`` decodes the last, partial batch and every batch no job has
/// taken yet on the calling thread, so a payload of fewer features than a
/// batch starts no job, and what is left to wait for is the batches being
/// decoded and jobs that will find nothing to do; once it returns no job is
/// left holding the payload's values.
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
        guard pending.count == Self.batchSize else { return }
        let number = queueBatch()
        DispatchQueue.global().async(group: jobs) { self.decode(number) }
    }

    /// Makes the pending features the next batch, for whichever thread takes it first.
    private func queueBatch() -> Int {
        let number = batchCount
        lock.withLock { untaken[number] = pending }
        pending = []
        batchCount += 1
        return number
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
        // The last, partial batch is offered to no job: the loop below decodes it here.
        if !pending.isEmpty { _ = queueBatch() }
        for number in 0..<batchCount { decode(number) }
        jobs.wait()
        return lock.withLock { (0..<batchCount).flatMap { batches[$0] ?? [] } }
    }
}
