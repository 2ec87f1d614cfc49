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

    /// 40 keys whose hashes share their low bits all want the same slot of
    /// the 256 a table of 40 keys has: the table turns itself off, and the
    /// dictionary answers every lookup.
    @Test func keysMadeToCollideTurnTheTableOffAndStillAnswer() {
        let colliding = (0..<200_000).lazy.map { "k\($0)" }.filter { FeatureTable.hash($0) & 0xFF == 0 }.prefix(40)
        let keys = Array(colliding)
        #expect(keys.count == 40)
        let byKey = Self.features(keys)
        let table = FeatureTable(byKey)
        #expect(!table.usesTable)
        for key in keys { #expect(table[key] === byKey[key]) }
        #expect(table["k-absent"] == nil)
    }
}
