import Foundation
import Laboratory
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps a GrowthBook source current over server-sent events
/// (`<host>/sub/<clientKey>`): a `features` event replaces the payload, a
/// `features-updated` event triggers a fetch. A dropped stream reconnects
/// after 1, 2, 4… seconds, at most 30.
public struct GrowthBookStreamer: Sendable {
    public var url: URL
    public var initialBackoff: TimeInterval
    public var maximumBackoff: TimeInterval

    public init(url: URL, initialBackoff: TimeInterval = 1, maximumBackoff: TimeInterval = 30) {
        self.url = url
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The stream endpoint for a client key.
    public static func streamURL(host: URL, clientKey: String) -> URL {
        host.appendingPathComponent("sub").appendingPathComponent(clientKey)
    }

    /// Streams until cancelled: `payload` gets each `features` event's data,
    /// `refetch` is awaited for `features-updated`, in this task, in order.
    public func run(payload: @escaping @Sendable (Data) -> Void, refetch: @escaping @Sendable () async -> Void) async {
        var backoff = initialBackoff
        while !Task.isCancelled {
            var received = false
            for await event in connect() {
                received = true
                switch event.type {
                case "features": payload(Data(event.data.utf8))
                case "features-updated": await refetch()
                default: break
                }
            }
            if received { backoff = initialBackoff }
            try? await Task.sleep(for: .seconds(backoff))
            backoff = min(backoff * 2, maximumBackoff)
        }
    }

    /// One connection's events; the sequence ends when the connection does.
    private func connect() -> AsyncStream<ServerSentEvent> {
        AsyncStream { continuation in
            let reader = EventReader(continuation: continuation)
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 3600)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// Feeds a streaming response to the event parser, and the events to a stream.
private final class EventReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncStream<ServerSentEvent>.Continuation
    // Touched on the session's delegate queue and under `lock`.
    private let lock = NSLock()
    private var parser = ServerSentEventParser()

    init(continuation: AsyncStream<ServerSentEvent>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let events = parser.feed(data)
        lock.unlock()
        for event in events { continuation.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
