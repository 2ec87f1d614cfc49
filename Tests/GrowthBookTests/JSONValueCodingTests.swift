import Foundation
import Testing

@testable import GrowthBook

/// JSON values inside encoded documents, and as people read them.
@Suite struct JSONValueCodingTests {
    static let value = JSONValue.object([
        .init("name", .string("x\u{1B}y")), .init("size", .number(12)), .init("ratio", .number(0.5)),
        .init("on", .bool(true)), .init("none", .null), .init("list", .array([.number(1), .object([])])),
    ])

    @Test func encodesAsJSONAndDecodesBack() throws {
        let data = try JSONEncoder().encode(Self.value)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{") && text.contains(#""size":12"#) && text.contains(#""list":[1,{}]"#), "\(text)")
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        // Foundation's coders do not keep member order; compare by member.
        #expect(Set(decoded.members?.map(\.key) ?? []) == Set(Self.value.members?.map(\.key) ?? []))
        for member in Self.value.members ?? [] { #expect(decoded[member.key] == member.value, "\(member.key)") }
    }

    @Test func prettyTextIndentsAndEscapes() {
        #expect(
            Self.value.prettyText == """
                {
                  "name": "x\\u001by",
                  "size": 12,
                  "ratio": 0.5,
                  "on": true,
                  "none": null,
                  "list": [
                    1,
                    {}
                  ]
                }
                """
        )
        #expect(JSONValue.array([]).prettyText == "[]")
    }
}
