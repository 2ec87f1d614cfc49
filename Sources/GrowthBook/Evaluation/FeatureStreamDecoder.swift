import Dispatch
import Foundation

/// Decodes features on other threads while the payload is still being
/// parsed: the parser hands over each feature as soon as it has read it
/// (``JSONValueParser/parse(_:streamingMembersOf:each:)``), and every batch
/// of them is decoded as one job, so parsing and decoding share the cores.
final class FeatureStreamDecoder: @unchecked Sendable {
    private static let batchSize = 64
    // Touched only by the parsing thread.
    private var pending: [JSONValue.Member] = []
    private var batchCount = 0
    // Written by the jobs, each its own batch, under the lock.
    private let lock = NSLock()
    private var batches: [Int: [GrowthBookFeature]] = [:]
    private let jobs = DispatchGroup()

    /// Takes the next feature, in payload order (on the parsing thread).
    func add(_ member: JSONValue.Member) {
        pending.append(member)
        if pending.count == Self.batchSize { startBatch() }
    }

    private func startBatch() {
        let members = pending
        let number = batchCount
        pending = []
        batchCount += 1
        DispatchQueue.global().async(group: jobs) {
            let features = members.map { GrowthBookFeature(id: $0.key, json: $0.value) }
            self.lock.withLock { self.batches[number] = features }
        }
    }

    /// Waits for the jobs; every feature handed over, decoded, in order.
    func finish() -> [GrowthBookFeature] {
        if !pending.isEmpty { startBatch() }
        jobs.wait()
        return lock.withLock { (0..<batchCount).flatMap { batches[$0] ?? [] } }
    }
}
