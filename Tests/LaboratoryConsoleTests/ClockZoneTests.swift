import Foundation
import Testing

@testable import LaboratoryConsole

/// The console's clock times, read without Foundation's calendar, say what
/// the calendar says.
@Suite struct ClockZoneTests {
    /// Times from 1901 to 2100, with fractions of a second, and the edges of a day.
    private static let dates: [Date] = {
        var dates = stride(from: -2_177_452_800.0, to: 4_102_444_800, by: 7_654_321.123).map {
            Date(timeIntervalSince1970: $0)
        }
        dates += [0, -0.5, -1, 86_399.999, 1_764_028_800, 1_764_028_799.999].map { Date(timeIntervalSince1970: $0) }
        return dates
    }()

    private func calendarClock(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
    }

    @Test func localTimeIsTheCurrentTimeZones() {
        for date in Self.dates {
            #expect(TimeText.clock(date, timeZone: .local) == calendarClock(date, .current), "\(date)")
        }
    }

    @Test(arguments: [0, 3600, -3600, 19_800, -34_200, 50_400])
    func aFixedOffsetIsThatTimeZones(_ offset: Int) throws {
        let timeZone = try #require(TimeZone(secondsFromGMT: offset))
        for date in Self.dates {
            #expect(TimeText.clock(date, timeZone: .offset(offset)) == calendarClock(date, timeZone), "\(date)")
        }
    }

    @Test func aTimeBeyondTheClocksRangeIsMidnight() {
        #expect(TimeText.clock(Date(timeIntervalSince1970: 1e300), timeZone: .local) == "00:00:00")
        #expect(
            TimeText.clock(Date.distantPast, timeZone: .utc)
                == calendarClock(.distantPast, TimeZone(secondsFromGMT: 0)!)
        )
    }
}
