import Testing

@testable import GrowthBook

/// A rule's members are found by name in one pass (``RuleMembers``), told
/// apart by length and first byte before any comparison.
struct RuleMembersTests {
    /// Every member GrowthBook reads, with where ``RuleMembers`` keeps it.
    private static let names: [(name: String, index: @Sendable (RuleMembers) -> Int?)] = [
        ("id", \.id), ("key", \.key), ("condition", \.condition), ("force", \.force), ("coverage", \.coverage),
        ("range", \.range), ("seed", \.seed), ("hashAttribute", \.hashAttribute),
        ("fallbackAttribute", \.fallbackAttribute), ("hashVersion", \.hashVersion), ("variations", \.variations),
        ("contextualVariations", \.contextualVariations), ("contextualBanditRef", \.contextualBanditRef),
        ("weights", \.weights), ("namespace", \.namespace), ("meta", \.meta), ("ranges", \.ranges),
        ("filters", \.filters), ("parentConditions", \.parentConditions), ("name", \.name), ("phase", \.phase),
        ("bucketVersion", \.bucketVersion), ("minBucketVersion", \.minBucketVersion),
        ("disableStickyBucketing", \.disableStickyBucketing), ("status", \.status), ("active", \.active),
    ]

    /// Names a lookup must not take for a member: the same length and first
    /// byte with another last byte, and the name in capitals.
    private static func lookAlikes(of name: String) -> [String] {
        [String(name.dropLast()) + "x", name.uppercased()]
    }

    @Test func everyMemberIsFoundAmongLookAlikesAtItsFirstPlace() {
        for (name, index) in Self.names {
            // Look-alikes first, then the member, then the member again with another value.
            var members = Self.lookAlikes(of: name).map { JSONValue.Member($0, .string("decoy")) }
            let place = members.count
            members.append(.init(name, .string("first")))
            members.append(.init(name, .string("second")))
            let found = RuleMembers(.object(members))
            #expect(index(found) == place, "\(name)")
            #expect(found[index(found)] == .string("first"), "\(name)")
            // No other member is claimed by these names.
            let claimed = Self.names.filter { $0.index(found) != nil }.map(\.name)
            #expect(claimed == [name], "\(name) claimed \(claimed)")
        }
    }

    @Test func onlyLookAlikesLeaveEveryMemberMissing() {
        let members = Self.names.flatMap { Self.lookAlikes(of: $0.name) }.map { JSONValue.Member($0, .null) }
        let found = RuleMembers(.object(members))
        #expect(Self.names.allSatisfy { $0.index(found) == nil })
    }

    @Test func aValueThatIsNotAnObjectHasNoMembers() {
        for value: JSONValue in [.null, "force", ["force", 1], 1, true] {
            let found = RuleMembers(value)
            #expect(Self.names.allSatisfy { $0.index(found) == nil })
        }
    }
}
