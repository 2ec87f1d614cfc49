import Foundation
import Laboratory
import Synchronization

/// A clock that moves only when told to, for tests.
public final class ManualClock: WallClock, Sendable {
    private let time: Mutex<Date>

    /// A clock standing at `start` until the test moves it.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        time = Mutex(start)
    }

    /// The time the test set last.
    public func now() -> Date { time.withLock({ $0 }) }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        time.withLock { $0 += seconds }
    }
}
