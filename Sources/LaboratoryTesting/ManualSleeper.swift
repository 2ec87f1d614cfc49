import Synchronization

/// A sleep that ends only when the test says so, for loops that wait between
/// rounds (such as `GrowthBookUpdater`): pass ``sleep(_:)`` as their sleep,
/// wait for ``nextSleep()`` to see the loop waiting, then ``wake()`` it.
public final class ManualSleeper: Sendable {
    private let sleepers = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let requests: AsyncStream<Duration>
    private let requested: AsyncStream<Duration>.Continuation

    /// A sleeper with nobody asleep.
    public init() {
        (requests, requested) = AsyncStream.makeStream(of: Duration.self)
    }

    /// Waits until ``wake()``; the loop's sleep.
    @Sendable public func sleep(_ duration: Duration) async {
        await withCheckedContinuation { continuation in
            sleepers.withLock { $0.append(continuation) }
            requested.yield(duration)
        }
    }

    /// The next sleep a loop began, once it has: how long it asked to sleep.
    public func nextSleep() async -> Duration? {
        var iterator = requests.makeAsyncIterator()
        return await iterator.next()
    }

    /// Ends every sleep begun so far.
    public func wake() {
        let waiting = sleepers.withLock { sleepers in
            defer { sleepers = [] }
            return sleepers
        }
        for continuation in waiting { continuation.resume() }
    }
}
