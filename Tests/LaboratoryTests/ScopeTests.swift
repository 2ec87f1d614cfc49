import Foundation
import Testing

@testable import Laboratory

/// Scopes as people type them, as the state file keeps them, and whom they match.
@Suite struct ScopeTests {
    @Test func typedScopesAreReadRepeatedOrJoinedAndWrittenSorted() throws {
        let scope = try Scope(parsing: ["os=ios", "id=qa-phone-7"])
        #expect(scope == (try Scope(parsing: ["id=qa-phone-7, os=ios"])))
        #expect(scope.description == "id=qa-phone-7,os=ios")
        #expect(Scope.everyone.description == "everyone")
        // A value may hold `=`: only the first one separates.
        #expect((try Scope(parsing: ["token=a=b"])).attributes == ["token": "a=b"])
        #expect((try Scope(parsing: [])).isEveryone)
    }

    @Test(arguments: [
        (["id"], "\"id\" is not an attribute match: write name=value (id=qa-phone-7)"),
        ([""], "\"\" is not an attribute match: write name=value (id=qa-phone-7)"),
        (["=x"], "\"=x\" is not an attribute match: write name=value (id=qa-phone-7)"),
        (["id=a", "id=b"], "attribute \"id\" is given twice, as \"a\" and \"b\""),
        (["id=a\u{7}"], "scope attribute \"id\" holds a control character"),
    ])
    func mistakesAreRefusedInPlainWords(_ given: [String], _ message: String) {
        #expect(throws: ScopeError(message)) { try Scope(parsing: given) }
    }

    @Test func theStoredFormReadsBackAsTheSameScope() throws {
        for scope in [Scope.everyone, Scope(attributes: ["id": "a=b"]), Scope(attributes: ["os": "", "id": "ü 7"])] {
            #expect(Scope(storedForm: scope.storedForm) == scope)
        }
        #expect(Scope(storedForm: "id") == nil)
        #expect(Scope(storedForm: "") == .everyone)
    }

    @Test func aUserIsInAScopeWhenEveryAttributeMatches() {
        let scope = Scope(attributes: ["id": "A", "os": "ios"])
        #expect(scope.matches(["id": "A", "os": "ios", "country": "NL"]))
        #expect(!scope.matches(["id": "A"]))
        #expect(!scope.matches(["id": "A", "os": "android"]))
        #expect(Scope.everyone.matches([:]))
    }

    @Test func scopedBeatsUnscopedMoreAttributesBeatFewerThenTheNewest() {
        let early = Date(timeIntervalSince1970: 1_000)
        let late = Date(timeIntervalSince1970: 2_000)
        func forced(_ scope: [String: String], at time: Date?) -> ForcedVariant {
            ForcedVariant(source: "S", experiment: "E", variant: "V", scope: Scope(attributes: scope), forcedAt: time)
        }
        let everyone = forced([:], at: late)
        let one = forced(["id": "A"], at: early)
        let two = forced(["id": "A", "os": "ios"], at: early)
        let newer = forced(["os": "ios"], at: late)
        let unknownTime = forced(["country": "NL"], at: nil)
        #expect(one.precedes(everyone) && !everyone.precedes(one))
        #expect(two.precedes(one) && two.precedes(newer))
        #expect(newer.precedes(one) && !one.precedes(newer))
        // A forced variant of an earlier release has no time: older than any.
        #expect(one.precedes(unknownTime))
        #expect(
            [everyone, one, two, newer, unknownTime].sorted { $0.precedes($1) } == [
                two, newer, one, unknownTime, everyone,
            ]
        )
        #expect(one.reasonItPrecedes(everyone) == "a scoped forced variant beats an unscoped one")
        #expect(two.reasonItPrecedes(one) == "more attributes (2) beat fewer (1)")
        #expect(newer.reasonItPrecedes(one) == "the newest wins")
    }
}
