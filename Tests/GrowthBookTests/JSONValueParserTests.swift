import LabTestSupport
import Testing

@testable import GrowthBook

/// The fast parser accepts exactly what the positioned parser accepts, as the same values.
@Suite struct JSONValueParserTests {
    static let texts: [String] = [
        #"{"a": [1, 2.5, -0.25, 0, -0, 1e3, 1E-3, 12345678901234567890, 0.1, 0.30000000000000004]}"#,
        "123456789012345", "1234567890123456", "0.000001", "9007199254740993", "4.35", "2.2250738585072014e-308",
        "0.1234567890123456789", "1.7976931348623157e308", "5e-324", "-1234.5678", "100000000000000000000000",
        #""plain""#, #""esc\"aped\\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 \ud800x""#, "\u{FEFF}{}", "[]", "{}",
        " \t\n\r[ true , false , null ] ", #"{"a":1,"a":2}"#, "\"é 😀\"",
        // Refused, by both.
        "", " ", "{", "[1,]", "{\"a\" 1}", "01", "1.", ".5", "-", "1e", "1e+", "+1", "1e309", "-1e309", "tru",
        "nulls", "\"\u{01}\"", "\"\\x\"", "\"\\u12\"", "\"abc", "[1] [2]", "{\"a\":}", "{,}", "[,1]", "\"\\ud800\\u\"",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
    ]

    @Test(arguments: texts) func agreesWithThePositionedParser(text: String) {
        let fast = try? JSONValueParser.parse(text.utf8)
        let positioned = (try? JSONNodeParser.parse(text)).map(JSONValue.init)
        #expect((fast == nil) == (positioned == nil))
        if let fast, let positioned { #expect(Self.identical(fast, positioned)) }
    }

    /// Strings are read eight bytes at a time up to the first quote, backslash
    /// or control character: one at every place in a word, after every
    /// alignment, between bytes next to those values, is found as the positioned parser finds it.
    @Test func everySpecialByteIsFoundWhereverItFallsInAWord() {
        let neighbours = ["!", "#", " ", "[", "]", "~", "\u{7F}", "é", "😀"]
        let specials = [#"\""#, #"\\"#, #"\n"#, #"\u0022"#, "\u{1F}", "\u{00}", "\u{0A}"]
        var count = 0
        for alignment in 0..<8 {
            for offset in 0..<17 {
                for special in specials {
                    let neighbour = neighbours[(alignment + offset) % neighbours.count]
                    let body = String(repeating: "a", count: offset) + neighbour + special + neighbour + "bc"
                    let text = String(repeating: " ", count: alignment) + #"["x", ""# + body + #"", "y"]"#
                    let fast = try? JSONValueParser.parse(text.utf8)
                    let positioned = (try? JSONNodeParser.parse(text)).map(JSONValue.init)
                    #expect((fast == nil) == (positioned == nil), "\(text.debugDescription)")
                    if let fast, let positioned {
                        #expect(Self.sameBytes(fast, positioned), "\(text.debugDescription)")
                    }
                    count += 1
                }
            }
        }
        #expect(count == 8 * 17 * 7)
    }

    /// Equal, with numbers equal to the bit (so -0 and 0 differ, and a rounding slip shows).
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && identical($0.value, $1.value) }
        default: return a == b
        }
    }

    /// A large document keeps the short strings it made and finds them again
    /// by their bytes: every string must still be exactly its own bytes,
    /// whether found or made, in the middle of the text or at its very end.
    @Test func shortStringsFoundAgainAreExactlyTheirBytes() throws {
        var random = SplitMix64(seed: 20_261_127)
        let pieces = ["a", "b", "Z", "é", "😀", "0", "-", "$", "id", "key", "e\u{301}"]
        // Lengths up to 17 bytes, many more than the table's slots, each used several times.
        let pool = (0..<600).map { _ in
            var text = ""
            while text.utf8.count < 1 + Int(random.next() % 17) {
                text += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            return text
        }
        var members: [JSONValue.Member] = []
        for index in 0..<3_000 {
            let name = pool[Int(random.next() % UInt64(pool.count))]
            members.append(.init(name + "\(index % 7)", .string(pool[index % pool.count])))
        }
        // The last strings lie within 16 bytes of the end, where their bytes are read one by one;
        // they share their first eight bytes, so only the rest tells them apart.
        let ending: [JSONValue] = ["abcdefghX", "abcdefghY", "abcdefgh", "abcdefghYZ", "é"]
        let document = JSONValue.array([.object(members), .string(pool[0])] + ending)
        let text = document.jsonText
        #expect(text.utf8.count > 4096)
        let parsed = try JSONValueParser.parse(text.utf8)
        // Compared first, so that a failure names the difference, not the whole document.
        let same = Self.sameBytes(parsed, document)
        #expect(same, "a string parsed from the document is not the string written")
        // Invalid UTF-8 is repaired as `String(decoding:as:)` repairs it, found again or not.
        let invalid: [UInt8] = [0x22, 0xFF, 0x41, 0x22]
        let bytes = [0x5B] + Array(repeating: invalid + [0x2C], count: 1_000).joined() + invalid + [0x5D]
        let repaired = String(decoding: [0xFF, 0x41] as [UInt8], as: UTF8.self)
        #expect(try JSONValueParser.parse(bytes).elements?.allSatisfy { $0.stringValue == repaired } == true)
    }

    /// Equal, with every string and name the same bytes (`==` holds `é` equal to `e` and an accent).
    static func sameBytes(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameBytes)
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && zip(x, y).allSatisfy { Array($0.key.utf8) == Array($1.key.utf8) && sameBytes($0.value, $1.value) }
        default: return identical(a, b)
        }
    }

    @Test func numbersAreTheNearestDouble() throws {
        // Every two-decimal fraction and a spread of longer ones read as Double's own parse does.
        for whole in [0, 1, 7, 42, 999, 123_456] {
            for hundredths in 0..<100 {
                let text = "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)"
                #expect(try JSONValueParser.parse(text.utf8) == .number(Double(text)!), "\(text)")
            }
        }
        for text in ["0.1", "0.2", "0.3", "3.14159265358979", "2.718281828459045", "0.000000000000000000001"] {
            let value = try JSONValueParser.parse(text.utf8)
            #expect(value.numberValue?.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
