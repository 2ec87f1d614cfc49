import Foundation
import Laboratory

/// Prints one JSON document on standard output.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T, pretty: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.iso8601(date))
        }
        let data = try encoder.encode(value)
        StandardStreams.write(TerminalText.json(String(decoding: data, as: UTF8.self)) + "\n", to: STDOUT_FILENO)
    }
}

/// How times are written for people and for JSON.
enum Timestamp {
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
