import Testing

@testable import GrowthBook

@Suite struct JSONNodeParserTests {
    @Test func keepsLineAndColumnOfEveryValue() throws {
        let node = try JSONNodeParser.parse("{\n  \"a\": [1,\n    true],\n  \"b\": \"x\"\n}")
        #expect(node.position == SourcePosition(line: 1, column: 1))
        guard case .object(let members) = node.kind, case .array(let items) = members[0].value.kind else {
            Issue.record("expected an object with an array")
            return
        }
        #expect(members[0].position == SourcePosition(line: 2, column: 3))
        #expect(items[1].position == SourcePosition(line: 3, column: 5))
        #expect(members[1].value.position == SourcePosition(line: 4, column: 8))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let node = try JSONNodeParser.parse(#""a\n\u00e9\ud83d\ude00\"""#)
        #expect(node.kind == .string("a\né😀\""))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "1:9", "expected a member name in quotes, found character '}'"),
        ("[1 2]", "1:4", "expected ',' or ']' in the array, found character '2'"),
        ("\"abc", "1:1", "unterminated string"),
        ("{\"a\" 1}", "1:6", "expected ':' after the member name, found character '1'"),
        ("01", "1:2", "unexpected character '1' after the JSON value"),
        ("[tru]", "1:2", "invalid literal, expected 'true'"),
        ("", "1:1", "expected a value, found end of file"),
        ("1.", "1:3", "invalid number: expected a digit after '.'"),
        ("\"a\u{01}\"", "1:3", "unescaped control character U+1 in a string"),
    ])
    func reportsSyntaxErrorsWithPosition(text: String, place: String, message: String) {
        #expect(throws: JSONNodeParser.SyntaxError.self) { try JSONNodeParser.parse(text) }
        do {
            _ = try JSONNodeParser.parse(text)
        } catch {
            #expect(error.position.description == place)
            #expect(error.message == message)
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(
            throws: JSONNodeParser.SyntaxError(
                message: "invalid literal, expected 'true'",
                position: SourcePosition(line: 1, column: 8)
            )
        ) {
            try JSONNodeParser.parse("{\"实验\": tru}")
        }
        #expect(
            throws: JSONNodeParser.SyntaxError(
                message: "expected ',' or '}' in the object, found character '🎉'",
                position: SourcePosition(line: 1, column: 9)
            )
        ) {
            try JSONNodeParser.parse("{\"é\": 1 🎉}")
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONNodeParser.SyntaxError.self) { try JSONNodeParser.parse(deep) }
    }
}
