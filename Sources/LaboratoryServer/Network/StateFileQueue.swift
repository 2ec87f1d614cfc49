import Dispatch
import Synchronization

/// Runs work on the state file on a thread of its own: the server's writes
/// of posted events, and the hub's reads and rebuilds (one queue each).
///
/// A write waits while another process holds the file's write lock (up to
/// SQLite's busy timeout). Done on a request's thread, that wait stalls every
/// request sharing the thread; here it stalls only the work queued behind
/// it, the caller awaits without holding a thread, and reads, which serve
/// from memory, never wait. The queue is bounded: past `capacity` waiting
/// pieces of work a new one is refused at once (for writes, 503 with `Retry-After`).
final class StateFileQueue: Sendable {
    private let queue: DispatchQueue
    private let capacity: Int
    private let pending = Mutex(0)

    /// The queue was full; nothing was written.
    struct Full: Error {}

    init(label: String, capacity: Int) {
        queue = DispatchQueue(label: "laboratory.server." + label)
        self.capacity = max(1, capacity)
    }

    /// Runs `work` on the queue's thread once the work before it is done.
    func perform<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        let admitted = pending.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Full() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try work() }
                self.pending.withLock { $0 -= 1 }
                continuation.resume(with: result)
            }
        }
    }
}
