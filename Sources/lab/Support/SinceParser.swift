import ArgumentParser
import Foundation
import Laboratory

/// Reads `--since`: an ISO 8601 date or time, or an age such as `10m`.
enum SinceParser {
    static func date(_ text: String, now: Date) -> Date? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()), amount >= 0,
            amount.isFinite
        {
            return now.addingTimeInterval(-amount * unit)
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }
}
