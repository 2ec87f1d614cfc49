import Testing

@testable import GrowthBook

/// Names to positions answer as a dictionary that keeps the first position
/// of a name does, through growth and when names are made to collide.
struct NameIndexTests {
    @Test func answersAsADictionaryKeepingTheFirst() {
        var index = NameIndex()
        var model: [String: Int] = [:]
        let names = (0..<5_000).map { "key\($0 % 3_000)" } + ["", "é", "e\u{301}", "🧪"]
        for (position, name) in names.enumerated() {
            let had = index.insert(name, at: position)
            #expect(had == model[name])
            if model[name] == nil { model[name] = position }
        }
        #expect(index.count == model.count)
        for (name, position) in model { #expect(index[name] == position) }
        for missing in ["key3000", "Key1", "🧫"] { #expect(index[missing] == nil) }
    }

    /// Names equal as Swift's strings are equal here too, also while the table holds only ASCII ones.
    @Test func canonicallyEqualNamesAreOneName() {
        var index = NameIndex()
        index.insert("K", at: 1)
        #expect(index["\u{212A}"] == 1)  // the Kelvin sign is canonically `K`
        #expect(index.insert("\u{212A}", at: 2) == 1)
        index.insert("é", at: 3)
        #expect(index["e\u{301}"] == 3)
        #expect(index.count == 2)
    }

    /// Names whose hashes share their low bits turn the index into a dictionary, which still answers.
    @Test func namesMadeToCollideAreStillFound() {
        let colliding = Array(
            (0..<2_000_000).lazy.map { "c\($0)" }.filter { NameHash.of($0) & 0x3FF == 0 }.prefix(40)
        )
        #expect(colliding.count == 40)
        var index = NameIndex(capacity: 64)
        for (position, name) in colliding.enumerated() { #expect(index.insert(name, at: position) == nil) }
        for (position, name) in colliding.enumerated() {
            #expect(index[name] == position)
            #expect(index.insert(name, at: -1) == position)
        }
        #expect(index["c-absent"] == nil)
    }
}
