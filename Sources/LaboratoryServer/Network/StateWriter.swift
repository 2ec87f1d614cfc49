import Dispatch
import Synchronization

/// Runs the server's writes to the state file on a thread of their own.
///
/// A write waits while another process holds the file's write lock (up to
/// SQLite's busy timeout). Done on a request's thread, that wait stalls every
/// request sharing the thread; here it stalls only the writes queued behind
/// it, the request awaits without holding a thread, and reads, which serve
/// from memory, never wait. The queue is bounded: past `capacity` waiting
/// writes a new one is refused at once (503 with `Retry-After`).
final class StateWriter: Sendable {
    private let queue = DispatchQueue(label: "laboratory.server.state-writer")
    private let capacity: Int
    private let pending = Mutex(0)

    /// The queue was full; nothing was written.
    struct Full: Error {}

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Writes waiting or under way.
    var waiting: Int { pending.withLock { $0 } }

    /// Runs `work` on the writer's thread once the writes before it are done.
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
