import Foundation

/// When a source that fetches on a timer fetches next, for Settings.
package struct FetchSchedule: Sendable, Equatable {
    package var next: Date
    /// Seconds between timed fetches.
    package var interval: Int

    package init(next: Date, interval: Int) {
        self.next = next
        self.interval = interval
    }
}
