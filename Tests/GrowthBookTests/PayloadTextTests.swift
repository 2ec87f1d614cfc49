import Foundation
import Testing

@testable import GrowthBook

/// A payload of ASCII bytes is parsed from the bytes themselves and made a
/// string only to place a problem; any other is checked as UTF-8 whole first.
/// Both read the same, and both name a problem's place the same way.
@Suite struct PayloadTextTests {
    /// A payload whose feature `f` has the default value `value` (JSON) and one rule `rule`.
    static func payload(_ value: String, rule: String = #"{"force": 1}"#) -> Data {
        Data(
            """
            {"features": {
              "f": {"defaultValue": \(value),
                "rules": [\(rule)]}
            }}
            """.utf8
        )
    }

    @Test func asciiAndOtherTextReadTheSame() throws {
        let ascii = try GrowthBookPayload(Self.payload(#""cafe""#), decrypt: nil)
        let accented = try GrowthBookPayload(Self.payload(#""café 🧪""#), decrypt: nil)
        let escaped = try GrowthBookPayload(Self.payload(#""caf\u00e9 \ud83e\uddea""#), decrypt: nil)
        #expect(ascii.decodedFeatures["f"]?.defaultValue == .string("cafe"))
        #expect(accented.decodedFeatures["f"]?.defaultValue == .string("café 🧪"))
        #expect(escaped.decodedFeatures["f"]?.defaultValue == .string("café 🧪"))
        // A byte order mark, the one non-ASCII start a parser skips.
        let marked = try GrowthBookPayload(Data([0xEF, 0xBB, 0xBF]) + Self.payload("true"), decrypt: nil)
        #expect(marked.decodedFeatures["f"]?.defaultValue == .bool(true))
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        var bytes = Self.payload(#""cafe""#)
        bytes[bytes.firstIndex(of: UInt8(ascii: "e"))!] = 0xE9  // Latin-1's é, alone
        #expect {
            try GrowthBookPayload(bytes, decrypt: nil)
        } throws: { error in
            "\(error)" == "the payload is not UTF-8 text"
        }
    }

    @Test func aProblemIsPlacedTheSameInEitherText() {
        for value in [#""cafe""#, #""café""#] {
            // Malformed: a comma, then the end of the list (line 3, column 29).
            #expect {
                try GrowthBookPayload(Self.payload(value, rule: #"{"force": 1}, "#), decrypt: nil)
            } throws: { error in
                "\(error)".hasPrefix("malformed payload JSON at 3:29: expected a value")
            }
            // Well formed, and refused by the checks: the place is the coverage's value (column 28).
            #expect {
                try GrowthBookPayload(Self.payload(value, rule: #"{"coverage": "all", "force": 1}"#), decrypt: nil)
            } throws: { error in
                "\(error)".hasPrefix("the payload was refused: payload:3:28: error: \"coverage\" of rule 1")
            }
        }
    }
}
