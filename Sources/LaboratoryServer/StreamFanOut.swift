import Foundation
import Synchronization

/// The open streams of one kind (`/sub/…` payload streams, the steering API's
/// change streams) and one message to all of them. Each stream keeps only its
/// newest few messages, so a client that reads slowly makes the server hoard nothing.
final class StreamFanOut: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<ServedStateHub.StreamMessage>.Continuation]>([:])
    private let keeping: Int

    /// - Parameter keeping: how many messages wait, at most, for a stream's reader.
    init(keepingNewest keeping: Int) {
        self.keeping = keeping
    }

    /// One stream's messages, and how to end it from outside its reader.
    struct Subscription: Sendable {
        let messages: AsyncStream<ServedStateHub.StreamMessage>
        /// Ends the stream now (its client left): it leaves the fan-out at
        /// once, and its reader sees the end after what was waiting.
        let end: @Sendable () -> Void
    }

    /// A new stream; it leaves the fan-out when its reader stops or it is ended.
    func subscribe() -> Subscription {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ServedStateHub.StreamMessage>.makeStream(
            bufferingPolicy: .bufferingNewest(keeping)
        )
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { _ = $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return Subscription(messages: stream, end: { continuation.finish() })
    }

    func broadcast(_ message: ServedStateHub.StreamMessage) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(message) }
    }

    /// The streams open now.
    var count: Int { continuations.withLock { $0.count } }
}
