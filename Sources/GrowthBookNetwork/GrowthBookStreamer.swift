import Foundation
import GrowthBook
import Synchronization

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
    ///
    /// Storms are coalesced: a `features` event is skipped when a newer one
    /// has already arrived, and one refetch answers every `features-updated`
    /// that arrived before it started, so 200 events cost one or two fetches.
    public func run(payload: @escaping @Sendable (Data) -> Void, refetch: @escaping @Sendable () async -> Void) async {
        var backoff = initialBackoff
        while !Task.isCancelled {
            var received = false
            let arrivals = Arrivals()
            var refetchedThrough = 0
            for await event in connect(arrivals) {
                received = true
                switch event.event.type {
                case "features":
                    if event.sequence < arrivals.latest.features { continue }
                    payload(Data(event.event.data.utf8))
                case "features-updated":
                    if event.sequence <= refetchedThrough { continue }
                    refetchedThrough = arrivals.latest.any
                    await refetch()
                default: break
                }
            }
            if received { backoff = initialBackoff }
            try? await Task.sleep(for: .seconds(backoff))
            backoff = min(backoff * 2, maximumBackoff)
        }
    }

    /// One connection's events, numbered; the sequence ends when the
    /// connection does. Only the newest few wait to be handled: older ones
    /// are superseded by them anyway.
    private func connect(_ arrivals: Arrivals) -> AsyncStream<NumberedEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(8)) { continuation in
            let reader = EventReader(continuation: continuation, arrivals: arrivals)
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

/// An event and its place in its connection's stream (1, 2, …).
struct NumberedEvent: Sendable {
    var event: ServerSentEvent
    var sequence: Int
}

/// What has arrived on one connection so far, for coalescing.
final class Arrivals: Sendable {
    struct Latest {
        /// The number of the newest event of any type.
        var any = 0
        /// The number of the newest `features` event.
        var features = 0
    }

    private let value = Mutex(Latest())

    var latest: Latest { value.withLock { $0 } }

    func record(_ event: ServerSentEvent) -> Int {
        value.withLock { value in
            value.any += 1
            if event.type == "features" { value.features = value.any }
            return value.any
        }
    }
}

/// Feeds a streaming response to the event parser, and the events to a stream;
/// a stream the parser refuses (a line past its cap) is dropped.
private final class EventReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncStream<NumberedEvent>.Continuation
    private let arrivals: Arrivals
    /// The parser, and whether it refused the stream; touched on the session's delegate queue.
    private let parsing = Mutex((parser: ServerSentEventParser(), refused: false))

    init(continuation: AsyncStream<NumberedEvent>.Continuation, arrivals: Arrivals) {
        self.continuation = continuation
        self.arrivals = arrivals
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (events, dropping) = parsing.withLock { state -> ([ServerSentEvent], Bool) in
            guard !state.refused else { return ([], true) }
            do {
                return (try state.parser.feed(data), false)
            } catch {
                state.refused = true
                return ([], true)
            }
        }
        for event in events { continuation.yield(NumberedEvent(event: event, sequence: arrivals.record(event))) }
        if dropping {
            dataTask.cancel()
            continuation.finish()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
