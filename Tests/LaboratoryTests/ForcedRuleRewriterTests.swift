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
        #expect(dutch.variant == "RuleValue" && !dutch.forced)
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
        // A force rule of its value follows, for SDKs that set no `id`; the rule it overtook is still there, after it.
        #expect(rules(shared, "buttonColor").count == 3)
        #expect(rules(shared, "buttonColor")[1] == .object([.init("force", .string("blue"))]))
        #expect(rules(shared, "buttonColor")[2]["force"] == .string("green"))
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
        let on = shared([force(name, "RuleValue")])
        let off = shared([force(name, "Default")])
        #expect(rules(on, "banner") == [.object([.init("force", .bool(true))])])
        for user in Self.users {
            let forced = try #require(on.evaluate("banner", attributes: user))
            #expect(forced.value == true && forced.variant == "RuleValue" && forced.forced && forced.decision == .rule)
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

    // MARK: - Scopes

    private func user(_ members: [String: String]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) })
    }

    @Test func aScopedForcedVariantReachesExactlyTheUsersOfItsScope() throws {
        let scope = Scope(attributes: ["id": "user-4"])
        let shared = shared([
            ForcedVariant(source: "GrowthBook", experiment: "checkout-test", variant: "Blue", scope: scope)
        ])
        let unforced = self.shared([])
        for user in Self.users {
            let result = try #require(shared.evaluate("buttonColor", attributes: user))
            if user["id"] == .string("user-4") {
                // Whatever the targeting said: the condition, coverage and namespace are the scope's now.
                #expect(result.value == "blue" && result.variant == "Blue" && result.forced)
                #expect(result.decision == .experiment)
            } else {
                #expect(result == unforced.evaluate("buttonColor", attributes: user))
            }
        }
        // The scope's rules come first, hashed on the scope's attribute.
        let first = try #require(rules(shared, "buttonColor").first)
        #expect(first["condition"] == .object([.init("id", .string("user-4"))]))
        #expect(first["hashAttribute"] == .string("id"))
        // A scope on another attribute reaches users whatever `id` they have, or none.
        let byDevice = Scope(attributes: ["deviceId": "qa-phone-7"])
        let other = self.shared([
            ForcedVariant(source: "GrowthBook", experiment: "checkout-test", variant: "Blue", scope: byDevice)
        ])
        for attributes in [["deviceId": "qa-phone-7"], ["deviceId": "qa-phone-7", "id": "someone"]] {
            let result = try #require(other.evaluate("buttonColor", attributes: user(attributes)))
            #expect(result.value == "blue" && result.forced, "\(attributes)")
        }
    }

    @Test func moreAttributesBeatFewerAndScopedBeatsUnscoped() throws {
        let phone = Scope(attributes: ["id": "user-3"])
        let phoneOnIOS = Scope(attributes: ["id": "user-3", "os": "ios"])
        let shared = shared([
            ForcedVariant(source: "GrowthBook", experiment: "checkout-test", variant: "Control"),
            ForcedVariant(source: "GrowthBook", experiment: "checkout-test", variant: "Blue", scope: phone),
            ForcedVariant(source: "GrowthBook", experiment: "checkout-test", variant: nil, scope: phoneOnIOS),
        ])
        // Everyone else: the unscoped Control.
        #expect(try #require(shared.evaluate("buttonColor", attributes: user(["id": "user-9"]))).variant == "Control")
        // The phone: its own Blue over everyone's Control.
        #expect(try #require(shared.evaluate("buttonColor", attributes: user(["id": "user-3"]))).variant == "Blue")
        // The phone on iOS: Inactive (more attributes) keeps it out of every rule of the experiment, the
        // scoped Blue and the unscoped Control alike; the feature's other rules still apply.
        for country in ["NL", "US"] {
            let result = try #require(
                shared.evaluate("buttonColor", attributes: user(["id": "user-3", "os": "ios", "country": country]))
            )
            #expect(result.decision != .experiment && result.value == (country == "NL" ? "green" : "red"))
        }
        let text = JSONValue.object([.init("features", .object(shared.features))]).jsonText
        _ = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
    }

    @Test func anSDKWithoutTheHashAttributeGetsTheForcedValueToo() throws {
        let shared = shared([force("checkout-test", "Blue")])
        // No `id`: the experiment rule is skipped, the force rule after it gives the same value.
        let result = try #require(shared.evaluate("buttonColor", attributes: user(["plan": "free"])))
        #expect(result.value == "blue" && result.variant == "Blue" && result.forced && result.decision == .rule)
    }
}
