import Foundation

/// Tells the wall-clock time that events and draws are stamped with;
/// injected so tests have exact times (``ManualClock`` in LaboratoryTesting).
/// Named apart from the standard library's `Clock`, which measures durations.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Date { Date() }
}
