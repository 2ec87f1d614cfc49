import Testing

@testable import GrowthBook

/// A user's attributes found by their names' hashes answer as a scan of the
/// object does: the first of a name, nothing for a missing one, and the same
/// when names were made to collide.
struct AttributeTableTests {
    private static func attributes(_ names: [String]) -> JSONValue {
        .object(names.enumerated().map { .init($1, .number(Double($0))) })
    }

    @Test func everyNameIsFoundAndNoOtherOne() {
        let names = (0..<200).map { "attribute\($0)" } + ["", "é", "e\u{301}x", "🧪", "a.b"]
        let table = AttributeTable(Self.attributes(names))
        for (index, name) in names.enumerated() { #expect(table.value(named: name) == .number(Double(index))) }
        for missing in ["attribute200", "Attribute1", "attribute", "🧫"] { #expect(table.value(named: missing) == nil) }
        #expect(AttributeTable(.object([])).value(named: "id") == nil)
        #expect(AttributeTable(.array([.string("id")])).value(named: "id") == nil)
        #expect(AttributeTable(.null).value(named: "0") == nil)
    }

    /// Names are JavaScript's property names: equal code unit for code unit,
    /// so `é` written as one scalar is not `e` and a combining accent (Swift's `==` says it is).
    @Test func namesAreEqualUnitForUnitAsInJavaScript() {
        let table = AttributeTable(.object([.init("é", .number(1))]))
        #expect(table.value(named: "é") == .number(1))
        #expect(table.value(named: "e\u{301}") == nil)
    }

    @Test func theFirstOfARepeatedNameIsFound() {
        let table = AttributeTable(.object([.init("id", .string("first")), .init("id", .string("second"))]))
        #expect(table.value(named: "id") == .string("first"))
    }

    /// Names whose hashes share their low bits land in one run of slots; past
    /// the probe limit the table is given up and the names are scanned.
    @Test func namesMadeToCollideAreStillFound() {
        let colliding = Array(
            (0..<1_000_000).lazy.map { "n\($0)" }.filter { NameHash.of($0) & 0x3F == 0 }.prefix(40)
        )
        #expect(colliding.count == 40)
        let table = AttributeTable(Self.attributes(colliding))
        for (index, name) in colliding.enumerated() { #expect(table.value(named: name) == .number(Double(index))) }
        #expect(table.value(named: "n-absent") == nil)
    }
}
