/// How long a stream's reader waits before connecting again: doubling
/// from `first` up to `cap`, and back to `first` once a connection held.
/// The GrowthBook streamer and the steering change stream's followers share it.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The first wait, and the wait after a connection held.
    public let first: Duration
    /// The longest wait.
    public let cap: Duration
    /// The wait before the next connection.
    public private(set) var next: Duration

    /// A backoff from `first` doubling up to `cap`.
    public init(first: Duration = .milliseconds(500), cap: Duration = .seconds(8)) {
        self.first = first
        self.cap = cap
        next = first
    }

    /// The wait before the next attempt; the one after is twice as long, up to the cap.
    public mutating func wait() -> Duration {
        defer { next = min(next * 2, cap) }
        return next
    }

    /// A connection held: the next loss waits `first` again.
    public mutating func reset() { next = first }
}
