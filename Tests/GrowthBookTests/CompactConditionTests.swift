import Testing

@testable import GrowthBook

/// A condition answered in plain values (``CompactCondition``) holds exactly
/// when the general walk says it does, for any attributes.
struct CompactConditionTests {
    /// Tests of every kind the compact form compiles, and some it leaves to the walk.
    private static let tests: [JSONValue] = [
        "US", "", "é", 18, 0, true, false, .null,
        ["$in": ["US", "CA"]], ["$nin": ["US", "CA"]], ["$in": ["é", "US"]], ["$in": []],
        // Lists unlike the others: a condition of several reads each from its own range of the pool.
        ["$in": ["18", "1.2.0", "us"]], ["$nin": ["CA", "v1.2.0"]],
        ["$gte": 18], ["$lt": 18.5], ["$gt": 0], ["$lte": -1], ["$eq": "US"], ["$exists": true],
        ["$vgte": "1.2.0"], ["$vlt": "1.10.0"], ["$veq": "v1.2.0"], ["$vgt": "1.2.0-beta"], ["$vne": "1.2"],
        ["$vlt": "1.2.3"], ["$vgte": "2.0.0.1"],
        ["$gte": 18, "$lt": 65], [1, 2],
    ]

    /// Values of every type an attribute takes, close to the tests' operands.
    private static let values: [JSONValue?] = [
        nil, "US", "CA", "us", "", "é", "e\u{301}", "18", "1.2.0", "1.3.0", "1.10.0", "01.2.0", "v1.2.0", "1.2",
        "1.2.5", "2.0.0.0", "2.0.0.3",
        "1.2.0-beta", 18, 17.9, 0, -1, 65, true, false, .null, ["US"], [1, 2], ["a": 1],
    ]

    @Test func holdsWhereTheGeneralWalkHolds() {
        var generator = SystemRandomNumberGenerator()
        let names = ["country", "age", "version", "beta"]
        var compiled = 0
        for _ in 0..<3_000 {
            let members = names.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)).map {
                JSONValue.Member($0, Self.tests.randomElement(using: &generator)!)
            }
            let condition = Condition(.object(members))
            if condition.compact.members != nil { compiled += 1 }
            for _ in 0..<8 {
                let attributes = JSONValue.object(
                    names.compactMap { name in Self.values.randomElement(using: &generator)!.map { .init(name, $0) } }
                )
                #expect(
                    condition.holds(for: AttributeTable(attributes), groups: [:])
                        == condition.holds(for: attributes, groups: [:]),
                    "\(members) for \(attributes)"
                )
            }
        }
        #expect(compiled == 3_000)
    }

    /// A test's operand reads back whole from the 16 bytes it shares with the others.
    @Test func aTestKeepsItsOperandWhole() {
        var test = CompactCondition.Test()
        test.versionFields = SIMD4(1, 0x8000_0000, 0xFFFF_FFFF, 7)
        #expect(test.versionFields == SIMD4(1, 0x8000_0000, 0xFFFF_FFFF, 7))
        test.poolRange = 3..<70_000
        #expect(test.poolRange == 3..<70_000)
        test.number = -0.5
        #expect(test.number == -0.5)
        test.textHash = 0xDEAD_BEEF
        #expect(test.textHash == 0xDEAD_BEEF)
    }

    @Test func nestedConditionsAreLeftToTheWalk() {
        #expect(Condition(["$or": [["a": 1], ["b": 2]]]).compact.members == nil)
        #expect(Condition(["a": ["$not": ["$eq": 1]]]).compact.members != nil)
        #expect(Condition(["user.plan": "pro"]).compact.members == nil)
        #expect(Condition(["$and": [["a": 1], ["b": 2]]]).compact.members != nil)
        #expect(Condition([:]).compact.members == nil)
    }
}
