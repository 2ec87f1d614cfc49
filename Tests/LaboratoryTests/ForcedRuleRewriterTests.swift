import Foundation
import Testing

@testable import GrowthBook
@testable import Laboratory

/// Forced variants written into a GrowthBook payload: every user gets them,
/// and every rule nobody forced keeps its targeting.
@Suite struct ForcedRuleRewriterTests {
    private static let payload = GrowthBookExperiments(
        try! GrowthBookPayload(
            Data(
                """
                {"features": {
                  "buttonColor": {"defaultValue": "red", "rules": [
                    {"id": "nl", "force": "green", "condition": {"country": "NL"}},
                    {"key": "checkout-test", "variations": ["red", "blue"], "weights": [0.5, 0.5], "coverage": 0.5,
                     "condition": {"plan": "pro"}, "namespace": ["ns", 0, 0.5], "bucketVersion": 3,
                     "minBucketVersion": 2, "hashAttribute": "id",
                     "meta": [{"key": "c", "name": "Control"}, {"key": "b", "name": "Blue"}]}]},
                  "banner": {"defaultValue": false, "rules": [{"force": true, "coverage": 0.3, "hashAttribute": "id"}]},
                  "plain": {"defaultValue": 7}
                }, "savedGroups": {"staff": ["a", "b"]}}
                """.utf8
            ),
            decrypt: nil
        )
    )

    private func shared(_ forcedVariants: [ForcedVariant]) -> SharedFeatures {
        ForcedRuleRewriter.rewrite(
            Self.payload,
            source: "GrowthBook",
            forcing: forcedVariants,
            deviceAttributes: .object([JSONValue.Member("id", .string("device-1"))])
        )
    }

    private func force(_ experiment: String, _ variant: String?) -> ForcedVariant {
        ForcedVariant(source: "GrowthBook", experiment: experiment, variant: variant)
    }

    /// Users of every kind: in and out of the condition, the namespace and the coverage.
    private static let users: [JSONValue] = (0..<300).map { index in
        .object([
            JSONValue.Member("id", .string("user-\(index)")),
            JSONValue.Member("country", .string(index % 3 == 0 ? "NL" : "US")),
            JSONValue.Member("plan", .string(index % 2 == 0 ? "pro" : "free")),
        ])
    }

    private func rules(_ shared: SharedFeatures, _ feature: String) -> [JSONValue] {
        shared.features.first { $0.key == feature }?.value["rules"]?.elements ?? []
    }

    @Test func withNothingForcedEveryRuleIsPassedThroughUnchanged() throws {
        let shared = shared([])
        #expect(
            shared.features
                == Self.payload.payload.features.map { member in
                    member.value["rules"] == nil
                        ? JSONValue.Member(
                            member.key,
                            .object((member.value.members ?? []) + [.init("rules", .array([]))])
                        )
                        : member
                }
        )
        #expect(shared.savedGroups == ["staff": [.string("a"), .string("b")]])
        // Targeting still decides: the Dutch get the force rule, as GrowthBook's experiment is named.
        let dutch = try #require(shared.evaluate("buttonColor", attributes: Self.users[0]))
        #expect(dutch.value == "green" && dutch.decision == .rule && dutch.experiment == "buttonColor: force")
        #expect(dutch.variant == "Forced" && !dutch.forced)
        let free = try #require(shared.evaluate("buttonColor", attributes: Self.users[1]))
        #expect(free.value == "red" && free.decision == .defaultValue && free.experiment == nil)
        #expect(shared.evaluate("missing") == nil)
        #expect(shared.evaluate("plain")?.value == 7)
    }

    @Test func aForcedExperimentPutsEveryUserInTheVariantAsAnExperiment() throws {
        let shared = shared([force("checkout-test", "Blue")])
        for user in Self.users {
            let result = try #require(shared.evaluate("buttonColor", attributes: user))
            #expect(result.value == "blue" && result.decision == .experiment)
            #expect(result.experiment == "checkout-test" && result.variant == "Blue" && result.forced)
        }
        let rule = try #require(rules(shared, "buttonColor").first)
        #expect(rule["key"] == .string("checkout-test"))
        #expect(rule["condition"] == nil && rule["namespace"] == nil)
        #expect(rule["coverage"] == .number(1) && rule["weights"] == .array([.number(0), .number(1)]))
        // Only the version moves: a minimum raised would exclude users with an older sticky bucket.
        #expect(rule["minBucketVersion"] == .number(2))
        let version = try #require(rule["bucketVersion"]?.numberValue)
        #expect(version >= Double(1 << 30) && version < Double(1 << 31))
        // The same forced variant gives the same version (and payload); another gives another.
        #expect(rules(self.shared([force("checkout-test", "Blue")]), "buttonColor").first == rule)
        let control = try #require(rules(self.shared([force("checkout-test", "Control")]), "buttonColor").first)
        #expect(control["bucketVersion"] != rule["bucketVersion"])
        // The rule it overtook is still there, after it.
        #expect(rules(shared, "buttonColor").count == 2)
        #expect(rules(shared, "buttonColor")[1]["force"] == .string("green"))
        // What the SDK sees still passes every check.
        let text = JSONValue.object([.init("features", .object(shared.features))]).jsonText
        _ = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
    }

    @Test func forcingInactiveRemovesTheRule() throws {
        let shared = shared([force("checkout-test", nil)])
        #expect(rules(shared, "buttonColor").count == 1)
        for user in Self.users {
            let result = try #require(shared.evaluate("buttonColor", attributes: user))
            #expect(result.value == (user["country"] == .string("NL") ? "green" : "red"))
            #expect(result.decision != .experiment)
        }
    }

    @Test func forceAndRolloutRulesForcedEitherWayReachEveryone() throws {
        let name = "banner: rollout"
        #expect(Self.payload.ruleExperiments.contains { $0.experiment.name == name })
        let on = shared([force(name, "Forced")])
        let off = shared([force(name, "Default")])
        #expect(rules(on, "banner") == [.object([.init("force", .bool(true))])])
        for user in Self.users {
            let forced = try #require(on.evaluate("banner", attributes: user))
            #expect(forced.value == true && forced.variant == "Forced" && forced.forced && forced.decision == .rule)
            let unforced = try #require(off.evaluate("banner", attributes: user))
            #expect(unforced.value == false && unforced.variant == "Default" && unforced.forced)
        }
        // Unforced, the rollout keeps its coverage: some users in, some out.
        let natural = Self.users.compactMap { shared([]).evaluate("banner", attributes: $0)?.value }
        #expect(natural.contains(true) && natural.contains(false))
    }

    @Test func aStaleForcedVariantChangesNothing() {
        let stale = shared([force("checkout-test", "Purple"), force("gone", "Blue"), force("banner: rollout", "X")])
        #expect(stale.features == shared([]).features)
        // Another source's forced variants are not this one's.
        let other = ForcedVariant(source: "Local", experiment: "checkout-test", variant: "Blue")
        #expect(shared([other]).features == shared([]).features)
    }

    @Test func withoutAttributesTheDeviceIsEvaluated() throws {
        let shared = shared([force("checkout-test", "Control")])
        let device = try #require(shared.evaluate("buttonColor"))
        #expect(device.value == "red" && device.variant == "Control" && device.forced)
    }
}
