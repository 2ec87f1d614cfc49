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
    /// `refetch` is called for `features-updated`.
    public func run(payload: @escaping @Sendable (Data) -> Void, refetch: @escaping @Sendable () async -> Void) async {
        var backoff = initialBackoff
        while !Task.isCancelled {
            let received = await stream { event in
                switch event.type {
                case "features": payload(Data(event.data.utf8))
                case "features-updated": Task { await refetch() }
                default: break
                }
            }
            if received { backoff = initialBackoff }
            try? await Task.sleep(for: .seconds(backoff))
            backoff = min(backoff * 2, maximumBackoff)
        }
    }

    /// One connection; returns whether any event arrived before it ended.
    private func stream(_ handle: @escaping @Sendable (ServerSentEvent) -> Void) async -> Bool {
        let reader = EventReader(handle: handle)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 3600)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await reader.run(task)
        } onCancel: {
            task.cancel()
        }
    }
}

/// Feeds a streaming response to the event parser.
private final class EventReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let handle: @Sendable (ServerSentEvent) -> Void
    // Touched on the session's delegate queue and under `lock`.
    private let lock = NSLock()
    private var parser = ServerSentEventParser()
    private var received = false
    private var continuation: CheckedContinuation<Bool, Never>?

    init(handle: @escaping @Sendable (ServerSentEvent) -> Void) {
        self.handle = handle
    }

    func run(_ task: URLSessionDataTask) async -> Bool {
        await withCheckedContinuation { continuation in
            lock.lock()
            self.continuation = continuation
            lock.unlock()
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let events = parser.feed(data)
        if !events.isEmpty { received = true }
        lock.unlock()
        events.forEach(handle)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let received = self.received
        lock.unlock()
        continuation?.resume(returning: received)
    }
}
