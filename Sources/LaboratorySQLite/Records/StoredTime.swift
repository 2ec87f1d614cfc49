import Foundation
internal import GRDB

/// Times as the state file keeps them: `yyyy-MM-dd HH:mm:ss.SSS` in UTC,
/// GRDB's format for `Date`, written and read here by arithmetic on the
/// civil calendar.
///
/// GRDB goes through Foundation's `DateFormatter` and `Calendar`, which load
/// ICU's calendar and time-zone data for a format with no time zone and no
/// locale: with the console's clock (`ClockZone`), 4 MB resident in every
/// console start.
/// What this does not handle (another form SQLite accepts, Unix seconds, a
/// year before 1900) still goes to GRDB; a test holds both to the same dates.
enum StoredTime {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceOffset: Int64 = 978_307_200

    /// The first and last days handled here, 1900-01-01 and 9999-12-31:
    /// before 1583 Foundation's calendar is Julian, and after 9999 its years grow.
    private static let handledDays: ClosedRange<Int64> = -25_567...2_932_896

    /// `date` as the state file stores it: this type's text, or GRDB's
    /// outside the years handled here. Every time a store writes goes through it.
    static func databaseValue(_ date: Date) -> DatabaseValue {
        text(date)?.databaseValue ?? date.databaseValue
    }

    /// The text GRDB writes for `date`: the nearest millisecond (a half goes
    /// up), as `DateFormatter`'s `SSS` gives it; `nil` outside the years
    /// 1900 to 9999 (which the caller hands to GRDB).
    static func text(_ date: Date) -> String? {
        // The formatter's own arithmetic: milliseconds since 1970 from the reference date's seconds.
        let milliseconds = ((date.timeIntervalSinceReferenceDate + Double(referenceOffset)) * 1000 + 0.5)
            .rounded(.down)
        guard abs(milliseconds) < 1e15 else { return nil }
        let (days, millisecond) = floorDivision(Int64(milliseconds), 86_400_000)
        guard handledDays.contains(days) else { return nil }
        let (year, month, day) = civil(fromDays: days)
        let second = millisecond / 1000
        var text = ""
        text.reserveCapacity(23)
        text += padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        text += " " + padded(second / 3600, 2) + ":" + padded(second / 60 % 60, 2) + ":" + padded(second % 60, 2)
        text += "." + padded(millisecond % 1000, 3)
        return text
    }

    /// The date of a stored `yyyy-MM-dd HH:mm:ss.SSS`, as GRDB reads it;
    /// `nil` for any other text (which the caller hands to GRDB).
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                bytes[19] == UInt8(ascii: ".")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for index in start..<start + count {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int64(digit)
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                let millisecond = number(20, 3), year >= 1900,
                (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60,
                second < 60
            else { return nil }
            let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
            // As Foundation's calendar adds the fraction: whole seconds from the reference date, then the rest.
            return Date(
                timeIntervalSinceReferenceDate: Double(seconds - referenceOffset) + Double(millisecond) / 1000
            )
        }
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
