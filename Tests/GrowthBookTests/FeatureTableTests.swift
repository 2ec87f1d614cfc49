import Testing

@testable import GrowthBook

/// The table every evaluation looks its feature up in: the same answers as
/// the dictionary it is built from, also when keys are made to collide.
@Suite struct FeatureTableTests {
    static func features(_ keys: [String]) -> [String: GrowthBookFeature] {
        Dictionary(
            uniqueKeysWithValues: keys.enumerated().map { index, key in
                (key, GrowthBookFeature(id: key, json: .object([.init("defaultValue", .number(Double(index)))])))
            }
        )
    }

    @Test func everyKeyIsFoundAndNoOtherOne() {
        let keys = (0..<1_000).map { "feature\($0)" } + ["", "é", "feature-🧪"]
        let byKey = Self.features(keys)
        let table = FeatureTable(byKey)
        #expect(table.usesTable)
        #expect(table.count == keys.count)
        for key in keys { #expect(table[key] === byKey[key]) }
        for missing in ["feature1000", "Feature1", "feature", "feature-🧫"] { #expect(table[missing] == nil) }
        #expect(FeatureTable()["anything"] == nil)
    }

    /// Keys are JavaScript's property names: the same code units, so `é`
    /// written as one scalar and as `e` with a combining accent are two keys
    /// (Swift's `==` holds them equal).
    @Test func keysAreEqualByteForByte() {
        let composed = GrowthBookFeature(id: "é", json: .object([.init("defaultValue", .number(1))]))
        let decomposed = GrowthBookFeature(id: "e\u{301}", json: .object([.init("defaultValue", .number(2))]))
        let table = FeatureTable([("é", composed), ("e\u{301}", decomposed)])
        #expect(table.usesTable)
        #expect(table.count == 2)
        #expect(table["é"] === composed)
        #expect(table["e\u{301}"] === decomposed)
        #expect(table["e"] == nil)
    }

    /// Two keys of one length whose whole hashes are the same, found by the
    /// birthday bound among a few hundred thousand: of 11, 13 and 14 bytes,
    /// a word and a tail of 2 + 1, 4 + 1 and 4 + 2 bytes, so that the
    /// comparison of each part of a tail meets keys that only it tells apart.
    static func keysOfOneHash(prefix: String) -> (String, String)? {
        var byHash: [UInt32: String] = [:]
        for number in 0..<1_000_000 {
            let key = prefix + String(1_000_000 + number).dropFirst()
            if let other = byHash.updateValue(key, forKey: FeatureTable.hash(key)) { return (other, key) }
        }
        return nil
    }

    /// A key found by hash is still compared byte for byte, its last bytes too.
    @Test(arguments: ["colli", "collide", "collide-"])
    func keysOfOneHashAreTwoKeys(prefix: String) throws {
        let (first, second) = try #require(Self.keysOfOneHash(prefix: prefix))
        #expect(first.utf8.count == prefix.utf8.count + 6 && second.utf8.count == first.utf8.count)
        let one = FeatureTable(Self.features([first]))
        #expect(one[first] != nil)
        #expect(one[second] == nil)
        let byKey = Self.features([first, second])
        let both = FeatureTable(byKey)
        #expect(both.usesTable)
        #expect(both[first] === byKey[first])
        #expect(both[second] === byKey[second])
    }

    /// Keys of one length are compared byte for byte, each part of a tail
    /// too: two that differ in any one byte are two keys.
    @Test func keysDifferingInAnyOneByteAreNotTheSame() {
        for length in 0...24 {
            let key = Array(repeating: UInt8(ascii: "k"), count: length)
            key.withUnsafeBytes { #expect(FeatureTable.sameBytes($0, $0), "\(length) bytes") }
            for position in 0..<length {
                var other = key
                other[position] = UInt8(ascii: "K")
                key.withUnsafeBytes { a in
                    other.withUnsafeBytes { b in
                        #expect(!FeatureTable.sameBytes(a, b), "\(length) bytes, byte \(position)")
                    }
                }
            }
        }
    }

    /// 40 keys whose hashes share their low ten bits: they all want the same
    /// slot of any table of up to 1,024 slots.
    static let collidingKeys = Array(
        (0..<1_000_000).lazy.map { "k\($0)" }.filter { FeatureTable.hash($0) & 0x3FF == 0 }.prefix(40)
    )

    /// Colliding keys turn the table off, and the dictionary answers every lookup.
    @Test func keysMadeToCollideTurnTheTableOffAndStillAnswer() {
        let keys = Self.collidingKeys
        #expect(keys.count == 40)
        let byKey = Self.features(keys)
        let table = FeatureTable(byKey)
        #expect(!table.usesTable)
        for key in keys { #expect(table[key] === byKey[key]) }
        #expect(table["k-absent"] == nil)
    }

    /// In payload order, the first of a repeated key wins, in the table and in the dictionary it falls back to.
    @Test(arguments: [false, true])
    func theFirstOfARepeatedKeyWins(colliding: Bool) {
        let keys = colliding ? Self.collidingKeys : (0..<40).map { "k\($0)" }
        let first = Self.features(keys)
        let again = Self.features(keys)
        let entries = keys.map { ($0, first[$0]!) } + keys.map { ($0, again[$0]!) }
        let table = FeatureTable(entries)
        #expect(table.usesTable == !colliding)
        #expect(table.count == keys.count)
        #expect(table.values.count == keys.count)
        for key in keys { #expect(table[key] === first[key]) }
    }

    /// Keys repeated between others, before and after colliding keys turn
    /// the table off: each key keeps the feature of its first place, and the
    /// features stay in the order of those places.
    @Test(arguments: [false, true])
    func repeatedKeysBetweenOthersKeepTheFeaturesOfTheirFirstPlaces(colliding: Bool) {
        let keys = colliding ? Self.collidingKeys : (0..<40).map { "k\($0)" }
        let first = Self.features(keys)
        let again = Self.features(keys)
        var entries: [(key: String, feature: GrowthBookFeature)] = []
        for (index, key) in keys.enumerated() {
            entries.append((key, first[key]!))
            if index % 2 == 1 { entries.append((keys[index - 1], again[keys[index - 1]]!)) }
        }
        let table = FeatureTable(entries)
        #expect(table.usesTable == !colliding)
        #expect(table.values.map(ObjectIdentifier.init) == keys.map { ObjectIdentifier(first[$0]!) })
        for key in keys { #expect(table[key] === first[key]) }
    }
}
