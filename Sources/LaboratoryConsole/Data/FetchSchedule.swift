import Foundation

/// When a source that fetches on a timer fetches next, for Settings.
public struct FetchSchedule: Sendable, Equatable {
    public var next: Date
    /// Seconds between timed fetches.
    public var interval: Int

    public init(next: Date, interval: Int) {
        self.next = next
        self.interval = interval
    }
}
