import Foundation

/// Times as files, JSON documents and the steering API write them: ISO 8601
/// in UTC with milliseconds (`2026-11-24T09:30:00.125Z`), read back with or
/// without the fraction.
public enum Timestamp {
    /// `date` in ISO 8601, UTC, with milliseconds (`2026-11-24T09:30:00.125Z`).
    public static func iso8601(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// Reads ``iso8601(_:)``, with or without fractional seconds; `nil` for anything else.
    public static func date(fromISO8601 text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// For a `JSONEncoder`: dates as ``iso8601(_:)``.
    public static let encodingStrategy = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(iso8601(date))
    }

    /// For a `JSONDecoder`: dates as ``iso8601(_:)`` writes them; anything else is an error.
    public static let decodingStrategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = date(fromISO8601: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)")
            )
        }
        return date
    }
}
