import Foundation

/// Tells the wall-clock time that events and draws are stamped with;
/// injected so tests have exact times (`ManualClock` in LaboratoryTesting).
/// Named apart from the standard library's `Clock`, which measures durations.
public protocol WallClock: Sendable {
    /// The time now.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: WallClock {
    /// The system's clock.
    public init() {}

    /// The system's time now.
    public func now() -> Date { Date() }
}
