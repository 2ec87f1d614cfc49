import Foundation

/// Where the console reads the clock times it shows: the machine's local
/// time, or a fixed offset from UTC (tests pin one).
///
/// Not Foundation's `TimeZone`: `TimeZone.current` and `Calendar` load ICU's
/// time-zone data to print `14:03:12` (with the state file's times, 4 MB
/// resident in every console start).
package enum ClockZone: Sendable, Equatable {
    /// The process's local time, as the C library reads it (`TZ`, then `/etc/localtime`).
    case local
    /// A fixed offset from UTC, in seconds east.
    case offset(Int)

    /// UTC.
    package static let utc = ClockZone.offset(0)

    /// Hours, minutes and seconds of `date` here.
    func clockParts(of date: Date) -> (hour: Int, minute: Int, second: Int) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Out of `time_t`'s range (a damaged time): midnight rather than a trap.
        guard abs(seconds) < 1e15 else { return (0, 0, 0) }
        switch self {
        case .offset(let offset):
            let inDay = (Int(seconds) + offset) % 86_400
            let second = inDay < 0 ? inDay + 86_400 : inDay
            return (second / 3600, second / 60 % 60, second % 60)
        case .local:
            var time = time_t(seconds)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return (0, 0, 0) }
            return (Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        }
    }
}
