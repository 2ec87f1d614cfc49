import Foundation
import GrowthBook
import NIOCore
import Synchronization

/// Keeps a GrowthBook source current over server-sent events
/// (`<host>/sub/<clientKey>`): a `features` event replaces the payload, a
/// `features-updated` event triggers a fetch. A dropped stream reconnects
/// after 1, 2, 4… seconds, at most 30.
///
/// It runs inside apps, so an upstream that sends faster than the app can
/// decode costs bounded memory: the socket is read only as fast as events
/// are parsed (`EventStreamConnection`), a line or event past the parser's
/// cap drops the connection, a `features` event superseded before it was
/// handled is dropped undecoded, and `features-updated` storms cost at most
/// one fetch in flight and one per ``minimumRefetchInterval``.
public struct GrowthBookStreamer: Sendable {
    /// Where events come from: `<apiHost>/sub/<clientKey>`.
    public var url: URL
    /// Seconds before the first reconnection after a dropped stream.
    public var initialBackoff: TimeInterval
    /// The longest wait between reconnections, as the wait doubles.
    public var maximumBackoff: TimeInterval
    /// The shortest time between two fetches that `features-updated` events ask for.
    public var minimumRefetchInterval: Duration

    /// A streamer; it connects when ``run(payload:refetch:)`` is called.
    public init(
        url: URL,
        initialBackoff: TimeInterval = 1,
        maximumBackoff: TimeInterval = 30,
        minimumRefetchInterval: Duration = .seconds(1)
    ) {
        self.url = url
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.minimumRefetchInterval = minimumRefetchInterval
    }

    /// The stream endpoint for a client key.
    public static func streamURL(host: URL, clientKey: String) -> URL {
        host.appendingPathComponent("sub").appendingPathComponent(clientKey)
    }

    /// Streams until cancelled: `payload` gets each `features` event's data,
    /// `refetch` is awaited for `features-updated`, in this task, in order.
    ///
    /// Storms are coalesced: only the newest `features` event waiting is
    /// handled, and one refetch answers every `features-updated` that arrived
    /// before it started, so 200 events cost one or two fetches.
    public func run(payload: @escaping @Sendable (Data) -> Void, refetch: @escaping @Sendable () async -> Void) async {
        var backoff = ReconnectBackoff(first: .seconds(initialBackoff), cap: .seconds(maximumBackoff))
        let clock = ContinuousClock()
        var lastRefetch: ContinuousClock.Instant?
        /// Fetches, waiting first if the last fetch was too recent.
        func refetchNoSooner(_ mailbox: EventMailbox) async {
            if let lastRefetch, clock.now - lastRefetch < minimumRefetchInterval {
                try? await Task.sleep(until: lastRefetch + minimumRefetchInterval, clock: clock)
                // What arrived meanwhile: the newest payload is applied, and the fetch
                // about to start answers every `features-updated` among it.
                if let features = mailbox.take().features { payload(features) }
            }
            lastRefetch = clock.now
            await refetch()
        }
        while !Task.isCancelled {
            let mailbox = EventMailbox()
            // The reader is a child task, so it runs where this task runs (on the
            // executor it prefers, if any) and ends when this one stops listening.
            let received = await withTaskGroup(of: Void.self, returning: Bool.self) { group in
                group.addTask { await read(into: mailbox) }
                var received = false
                for await _ in mailbox.arrivals {
                    received = true
                    let waiting = mailbox.take()
                    if let features = waiting.features { payload(features) }
                    if waiting.updated { await refetchNoSooner(mailbox) }
                }
                group.cancelAll()
                return received
            }
            if received { backoff.reset() }
            try? await Task.sleep(for: backoff.wait())
        }
    }

    /// Reads one connection into `mailbox`, parsing as it reads; the
    /// mailbox finishes when the connection ends, fails or is cut.
    private func read(into mailbox: EventMailbox) async {
        do {
            try await EventStreamReader.read(url) { mailbox.put($0) }
        } catch {
            // A refused line, a failed connection or a cancelled task: the streamer reconnects.
        }
        mailbox.finish()
    }
}

/// What one connection's events left for the streamer: the newest
/// `features` event's data and whether a `features-updated` came since the
/// last take. The stream of arrivals holds one wake-up at most.
final class EventMailbox: Sendable {
    private struct Waiting {
        var features: Data?
        var updated = false
    }

    private let waiting = Mutex(Waiting())
    let arrivals: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (arrivals, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Leaves an event: a `features` event replaces the one waiting (that one was never decoded).
    func put(_ event: ServerSentEvent) {
        let woke = waiting.withLock { waiting -> Bool in
            switch event.type {
            case "features": waiting.features = Data(event.data.utf8)
            case "features-updated": waiting.updated = true
            default: return false
            }
            return true
        }
        if woke { wake.yield() }
    }

    /// Takes what is waiting, leaving nothing.
    func take() -> (features: Data?, updated: Bool) {
        waiting.withLock { waiting in
            defer { waiting = Waiting() }
            return (waiting.features, waiting.updated)
        }
    }

    func finish() { wake.finish() }
}
