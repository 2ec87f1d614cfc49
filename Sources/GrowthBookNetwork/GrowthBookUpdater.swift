import Foundation
import Synchronization

/// Keeps a GrowthBook payload current, as GrowthBook's SDKs do with
/// auto-refresh: a fetch at once and then every `interval`, and server-sent
/// events as soon as the server offers them, so a change arrives within the
/// interval when polling and within moments when streaming.
///
/// It holds no payload and knows no evaluator: `fetch` fetches (and keeps its
/// own ETag, as ``HTTPPayloadFetcher``'s caller does) and `receive` takes a
/// payload a stream pushed. Nothing here blocks the caller; updates stop on
/// ``stop()`` or when the updater is released.
///
/// ```swift
/// let fetcher = HTTPPayloadFetcher(url: HTTPPayloadFetcher.featuresURL(host: host, clientKey: key))
/// let updater = GrowthBookUpdater(
///     every: .seconds(30),
///     streamURL: GrowthBookStreamer.streamURL(host: host, clientKey: key),
///     streamingOffered: { fetcher.streaming.isEnabled },
///     fetch: { await reload(from: fetcher) },
///     receive: { data in apply(data) }
/// )
/// updater.start()
/// ```
public final class GrowthBookUpdater: Sendable {
    /// How the updater waits between fetches; tests pass one they advance by hand.
    public typealias Sleep = @Sendable (Duration) async -> Void

    /// The time between two timed fetches.
    public let interval: Duration
    private let streamURL: URL?
    private let streamingOffered: @Sendable () -> Bool
    private let streamStarted: @Sendable () -> Void
    private let fetch: @Sendable () async -> Void
    private let receive: @Sendable (Data) -> Void
    private let sleep: Sleep
    private let now: @Sendable () -> Date
    private let executor: (any TaskExecutor)?

    private struct Progress {
        var task: Task<Void, Never>?
        var nextFetch: Date?
        var isStreaming = false
    }

    private let progress = Mutex(Progress())

    /// - Parameters:
    ///   - interval: the time between two timed fetches.
    ///   - streamURL: where server-sent events come from (`<apiHost>/sub/<clientKey>`); `nil` polls only.
    ///   - streamingOffered: whether the server has offered events (`x-sse-support: enabled`), asked after each fetch.
    ///   - streamStarted: called once the stream is opened, for a status line.
    ///   - fetch: fetches the payload and applies it.
    ///   - receive: applies a payload a `features` event carried.
    ///   - sleep: waits; by default `Task.sleep`.
    ///   - now: the time, for ``nextFetch``.
    ///   - executor: where fetching and streaming run; by default Swift's shared pool
    ///     (a server whose pool may be busy with blocking work gives them one of their own).
    public init(
        every interval: Duration,
        streamURL: URL? = nil,
        streamingOffered: @escaping @Sendable () -> Bool = { true },
        streamStarted: @escaping @Sendable () -> Void = {},
        fetch: @escaping @Sendable () async -> Void,
        receive: @escaping @Sendable (Data) -> Void,
        sleep: @escaping Sleep = { try? await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = Date.init,
        executor: (any TaskExecutor)? = nil
    ) {
        self.interval = interval
        self.streamURL = streamURL
        self.streamingOffered = streamingOffered
        self.streamStarted = streamStarted
        self.fetch = fetch
        self.receive = receive
        self.sleep = sleep
        self.now = now
        self.executor = executor
    }

    deinit { stop() }

    /// When the next timed fetch happens, once the first fetch has run.
    public var nextFetch: Date? { progress.withLock { $0.nextFetch } }

    /// Whether payloads also arrive over server-sent events.
    public var isStreaming: Bool { progress.withLock { $0.isStreaming } }

    /// Starts fetching (at once) and, once offered, streaming; a second call does nothing.
    public func start() {
        let (interval, streamURL, streamingOffered, streamStarted) = (
            interval, streamURL, streamingOffered, streamStarted
        )
        let (fetch, receive, sleep, now, executor) = (fetch, receive, sleep, now, executor)
        progress.withLock { state in
            guard state.task == nil else { return }
            // The task holds what it needs and the updater weakly, so releasing the updater stops it.
            state.task = Task.detached(executorPreference: executor) { [weak self] in
                var streamer: Task<Void, Never>?
                defer { streamer?.cancel() }
                while !Task.isCancelled {
                    await fetch()
                    if streamer == nil, let url = streamURL, streamingOffered() {
                        self?.progress.withLock { $0.isStreaming = true }
                        streamStarted()
                        streamer = Task.detached(executorPreference: executor) {
                            await GrowthBookStreamer(url: url).run(payload: receive, refetch: fetch)
                        }
                    }
                    let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
                    self?.progress.withLock { $0.nextFetch = now().addingTimeInterval(seconds) }
                    await sleep(interval)
                }
            }
        }
    }

    /// Stops fetching and streaming.
    public func stop() {
        progress.withLock { state in
            state.task?.cancel()
            state.task = nil
            state.isStreaming = false
        }
    }
}
