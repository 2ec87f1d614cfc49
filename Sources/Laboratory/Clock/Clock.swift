import Foundation

/// Tells the time; injected so events and draws have exact times in tests.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: Clock {
    public init() {}

    public func now() -> Date { Date() }
}

/// A clock that moves only when told to, for tests.
public final class ManualClock: Clock, @unchecked Sendable {
    private let time: Locked<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        time = Locked(start)
    }

    public func now() -> Date { time.current }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        time.withLock { $0 += seconds }
    }
}
