import Foundation
import Laboratory

/// Prints one JSON document on standard output.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T, pretty: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = Timestamp.encodingStrategy
        let data = try encoder.encode(value)
        StandardStreams.write(TerminalText.json(String(decoding: data, as: UTF8.self)) + "\n", to: STDOUT_FILENO)
    }
}
