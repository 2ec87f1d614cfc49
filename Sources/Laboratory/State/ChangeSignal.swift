import Synchronization

/// Tells every listener that something changed, so watchers wait for a
/// change instead of reading the state on timers of their own: one signal
/// per store, however many watch it (the manager, the console, the server).
///
/// A listener that is slow keeps one pending signal: a burst of changes
/// wakes it once, and it reads the state once.
public final class ChangeSignal: Sendable {
    private struct Listeners {
        var continuations: [Int: AsyncStream<Void>.Continuation] = [:]
        var next = 0
        var count = 0
    }

    private let listeners = Mutex(Listeners())
    /// Called with `true` when the first listener arrives and `false` when the last one leaves.
    private let onListening: @Sendable (ChangeSignal, Bool) -> Void

    /// - Parameter onListening: starts and stops the work that notices
    ///   changes made elsewhere (another process's writes), so nobody pays
    ///   for it while nobody listens.
    public init(onListening: @escaping @Sendable (ChangeSignal, Bool) -> Void = { _, _ in }) {
        self.onListening = onListening
    }

    /// How many changes were announced; moves with every ``announce()``.
    public var count: Int { listeners.withLock { $0.count } }

    /// A stream that yields after every change from now on, until the task reading it ends.
    public func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (id, first) = listeners.withLock { listeners in
            defer { listeners.next += 1 }
            listeners.continuations[listeners.next] = continuation
            return (listeners.next, listeners.continuations.count == 1)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            let last = self.listeners.withLock { listeners in
                listeners.continuations[id] = nil
                return listeners.continuations.isEmpty
            }
            if last { self.onListening(self, false) }
        }
        if first { onListening(self, true) }
        return stream
    }

    /// Tells every listener that something changed.
    public func announce() {
        let continuations = listeners.withLock { listeners in
            listeners.count += 1
            return Array(listeners.continuations.values)
        }
        for continuation in continuations { continuation.yield() }
    }
}
