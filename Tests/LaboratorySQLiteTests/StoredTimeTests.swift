import Foundation
import GRDB
import LabTestSupport
import Testing

@testable import LaboratorySQLite

/// `StoredTime` writes and reads times exactly as GRDB does through
/// Foundation's formatter and calendar, which it replaces on the paths a
/// console start takes.
@Suite struct StoredTimeTests {
    /// Dates over the whole range written here, many with a fraction of a millisecond.
    private static func dates(seed: UInt64, count: Int) -> [Date] {
        var generator = SplitMix64(seed: seed)
        let first = -2_208_988_800.0  // 1900-01-01 00:00:00 UTC
        let last = 253_402_300_799.0  // 9999-12-31 23:59:59 UTC
        var dates = (0..<count).map { index -> Date in
            switch index % 4 {
            // Anywhere in the years 1900 to 9999.
            case 0: return Date(timeIntervalSince1970: first + generator.unit() * (last - first))
            // The years a state file holds, with sub-millisecond fractions.
            case 1: return Date(timeIntervalSince1970: 1.5e9 + generator.unit() * 4e8)
            // Whole milliseconds, as stored times read back are.
            case 2: return Date(timeIntervalSince1970: (1.5e12 + (generator.unit() * 4e11).rounded()) / 1000)
            // Before 1970, where division rounds the other way.
            default: return Date(timeIntervalSince1970: -generator.unit() * 2.2e9)
            }
        }
        dates += [first, last + 0.999, 0, -0.0005, -1, 951_782_400, 951_868_799.999].map {
            Date(timeIntervalSince1970: $0)
        }
        dates.append(Date())
        return dates
    }

    @Test func writesWhatGRDBWrites() throws {
        for date in Self.dates(seed: 20_261_125, count: 20_000) {
            let expected = String.fromDatabaseValue(date.databaseValue)
            #expect(StoredTime.text(date) == expected, "\(date.timeIntervalSince1970)")
        }
    }

    @Test func readsWhatGRDBReads() throws {
        for date in Self.dates(seed: 1_618_033, count: 20_000) {
            let text = try #require(String.fromDatabaseValue(date.databaseValue))
            let expected = Date.fromDatabaseValue(text.databaseValue)
            #expect(StoredTime.date(text) == expected, "\(text)")
        }
    }

    @Test(arguments: [
        "2026-02-30 10:00:00.000",  // no such day: GRDB's calendar rolls it over, so GRDB reads it
        "2026-13-01 10:00:00.000", "2026-11-25 24:00:00.000", "2026-11-25 10:60:00.000",
        "2026-11-25 10:00:60.000", "0000-01-01 00:00:00.000", "1899-12-31 23:59:59.999", "2026-11-25T10:00:00.000",
        "2026-11-25 10:00:00", "2026-11-25", "2026-11-25 10:00:00.0000", "2026-11-2a 10:00:00.000",
        "+026-11-25 10:00:00.000", "２026-11-25 10:00:00.000",
    ])
    func anyOtherFormIsLeftToGRDB(_ text: String) {
        #expect(StoredTime.date(text) == nil)
    }

    @Test func yearsBefore1900OrAfter9999AreLeftToGRDB() {
        #expect(StoredTime.text(Date(timeIntervalSince1970: -2_208_988_800.001)) == nil)
        #expect(StoredTime.text(Date(timeIntervalSince1970: -62_135_596_800)) == nil)
        #expect(StoredTime.text(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(StoredTime.text(Date(timeIntervalSince1970: .greatestFiniteMagnitude)) == nil)
    }
}
