import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// The GrowthBook remote source on payloads served from memory.
@Suite struct GrowthBookSourceTests {
    /// A payload with one experiment over two features, a force rule, and an override list.
    private func payload(buttonBlue: String = "blue", newExperiment: Bool = false, overrides: [String] = []) -> Data {
        var features = """
            "buttonColor": {"defaultValue": "red", "rules": [
              {"key": "checkout-test", "variations": ["red", "\(buttonBlue)"], "weights": [0.5, 0.5],
               "meta": [{"key": "0", "name": "Control"}, {"key": "1", "name": "Blue"}], "coverage": 1}]},
            "buttonSize": {"defaultValue": 10, "rules": [
              {"key": "checkout-test", "variations": [10, 14], "meta": [{"key": "0", "name": "Control"}, {"key": "1", "name": "Blue"}]}]},
            "banner": {"defaultValue": false, "rules": [{"force": true}]}
            """
        if newExperiment {
            features += #", "late": {"defaultValue": 0, "rules": [{"key": "late-test", "variations": [0, 1]}]}"#
        }
        if !overrides.isEmpty {
            let list = overrides.map { "\"\($0)\"" }.joined(separator: ",")
            features += #", "__Override_checkout-test": {"defaultValue": [\#(list)]}"#
        }
        return Data("{\"features\": {\(features)}}".utf8)
    }

    private func source(
        _ fetcher: InMemoryFetcher,
        store: InMemoryStateStore = InMemoryStateStore(),
        id: String = "device-1"
    ) throws -> GrowthBookSource {
        let device = try store.device(candidate: Device(id: id, token: ActiveExperimentsToken(0.5)))
        return GrowthBookSource(store: store, device: device, fetcher: PlainPayloadFetcher(fetcher))
    }

    @Test func experimentRulesBecomeExperimentsAcrossFeatures() async throws {
        let fetcher = InMemoryFetcher(payload())
        let source = try source(fetcher)
        #expect(source.experiments.isEmpty)  // nothing fetched yet: baselines
        try await source.update()
        let experiment = try #require(source.experiments.first { $0.name == "checkout-test" })
        #expect(source.experiments.map(\.name) == ["banner: force", "checkout-test"])
        #expect(experiment.keys == ["buttonColor", "buttonSize"])
        #expect(experiment.variants.map(\.name) == ["Control", "Blue"])
        #expect(experiment.variants[1].assignments == ["buttonColor": "blue", "buttonSize": 14])
        #expect(experiment.baseline == "Control")
        // A force rule appears as such: Forced or the feature's Default.
        let force = try #require(source.experiments.first { $0.name == "banner: force" })
        #expect(force.variants.map(\.name) == ["Default", "RuleValue"])
        #expect(force.variants[1].assignments == ["banner": true])
        #expect(
            try source.activeVariants().contains {
                $0.experiment.name == "banner: force" && $0.variant.name == "RuleValue"
            }
        )
    }

    /// A payload's contextual bandits reach the evaluator and what the source
    /// shares: one user id, two plans, two leaves that give opposite variations.
    @Test func contextualBanditsRouteByLeafThroughTheSource() async throws {
        let payload = #"""
            {"features": {"cta": {"defaultValue": "none", "rules": [
              {"key": "cta-bandit", "hashAttribute": "id", "hashVersion": 2, "coverage": 1,
               "contextualVariations": ["control", "treatment"], "weights": [0.5, 0.5],
               "meta": [{"key": "0"}, {"key": "1"}], "contextualBanditRef": "cb"}]}},
             "contextualBandits": {"cb": {"banditVersion": 3, "contexts": [
               {"leafId": 1, "condition": {"plan": "enterprise"}, "weights": [1, 0]},
               {"leafId": 2, "condition": {}, "weights": [0, 1]}]}}}
            """#
        let source = try source(InMemoryFetcher(Data(payload.utf8)))
        try await source.update()
        let shared = try #require(source.sharedFeatures(forcing: []))
        #expect(shared.contextualBandits["cb"] != nil)
        func value(plan: String) -> AssignmentValue? {
            shared.evaluate(
                "cta",
                attributes: .object([.init("id", .string("1")), .init("plan", .string(plan))])
            )?.value
        }
        #expect(value(plan: "enterprise") == "control")
        #expect(value(plan: "free") == "treatment")
    }

    /// A bandit's rule is an experiment QA can force: listed with its
    /// variations, and once forced, every user gets the variation whatever leaf they meet.
    @Test func aBanditRuleIsListedAndForcingItReachesEveryLeaf() async throws {
        let payload = #"""
            {"features": {"cta": {"defaultValue": "none", "rules": [
              {"key": "cta-bandit", "contextualVariations": ["control", "treatment"], "weights": [0.5, 0.5],
               "meta": [{"key": "0", "name": "Control"}, {"key": "1", "name": "Treatment"}], "contextualBanditRef": "cb"}]}},
             "contextualBandits": {"cb": {"contexts": [
               {"leafId": 1, "condition": {"plan": "enterprise"}, "weights": [1, 0]},
               {"leafId": 2, "condition": {}, "weights": [0, 1]}]}}}
            """#
        let source = try source(InMemoryFetcher(Data(payload.utf8)))
        try await source.update()
        let experiment = try #require(source.experiments.first { $0.name == "cta-bandit" })
        #expect(experiment.variants.map(\.name) == ["Control", "Treatment"])
        let forced = try #require(
            source.sharedFeatures(forcing: [
                ForcedVariant(source: "GrowthBook", experiment: "cta-bandit", variant: "Treatment")
            ])
        )
        for plan in ["enterprise", "free"] {
            let evaluation = forced.evaluate(
                "cta",
                attributes: .object([.init("id", .string("1")), .init("plan", .string(plan))])
            )
            #expect(evaluation?.value == "treatment" && evaluation?.forced == true, "\(plan)")
        }
    }

    @Test func activeExactlyWhereGrowthBookPutsTheDevice() async throws {
        let fetcher = InMemoryFetcher(payload())
        var seen: Set<String> = []
        for index in 0..<40 {
            let source = try source(fetcher, id: "device-\(index)")
            try await source.update()
            let active = try #require(try source.activeVariants().first { $0.experiment.name == "checkout-test" })
            // The same device through GrowthBook's own evaluator.
            var evaluator = GrowthBookEvaluator(
                context: GrowthBookContext(
                    attributes: .object([.init("id", .string("device-\(index)"))]),
                    features: try GrowthBookPayload(payload(), decrypt: nil).decodedFeatures
                )
            )
            let expected = evaluator.evaluateFeature("buttonColor").experimentResult?.variationId
            #expect(active.experiment.variants.firstIndex(of: active.variant) == expected)
            seen.insert(active.variant.name)
        }
        #expect(seen == ["Control", "Blue"])
    }

    @Test func aBadFetchKeepsTheLastGoodPayloadAndANewStartServesIt() async throws {
        let store = InMemoryStateStore()
        let fetcher = InMemoryFetcher(payload())
        let first = try source(fetcher, store: store)
        try await first.update()
        let before = try first.activeVariants()
        fetcher.serve(Data("{ not json".utf8))
        await #expect(throws: GrowthBookPayload.Invalid.self) { try await first.update() }
        #expect(try first.activeVariants() == before)
        fetcher.fail(with: URLError(.notConnectedToInternet))
        // A new process with no network serves the stored payload at once.
        let restarted = try source(fetcher, store: store)
        #expect(try restarted.activeVariants() == before)
    }

    @Test func stabilizationKeepsAssignmentsAndFollowingKeysFollow() async throws {
        let store = InMemoryStateStore()
        let fetcher = InMemoryFetcher(payload())
        // A device in the Blue variation (found by searching ids).
        var blueSource: GrowthBookSource?
        for index in 0..<40 where blueSource == nil {
            let candidate = try source(fetcher, store: InMemoryStateStore(), id: "d\(index)")
            try await candidate.update()
            if try candidate.activeVariants().first(where: { $0.experiment.name == "checkout-test" })?.variant.name
                == "Blue"
            {
                blueSource = candidate
            }
        }
        let source = try #require(blueSource)
        try source.stabilize()
        fetcher.serve(payload(buttonBlue: "navy", newExperiment: true))
        try await source.update()
        var active = try source.activeVariants()
        #expect(active.map(\.experiment.name) == ["checkout-test", "banner: force"])  // late-test is not exposed
        #expect(active[0].variant.assignments["buttonColor"] == "blue")  // kept by stabilization
        fetcher.serve(payload(buttonBlue: "navy", overrides: ["buttonColor"]))
        try await source.update()
        active = try source.activeVariants()
        #expect(active[0].variant.assignments["buttonColor"] == "navy")  // follows: listed in __Override_
        #expect(active[0].variant.assignments["buttonSize"] == 14)
        _ = store
    }

    @Test func encryptedPayloadsNeedTheKey() throws {
        let encrypted = Data(#"{"encryptedFeatures": "abc.def"}"#.utf8)
        #expect(throws: GrowthBookPayload.Invalid.self) { try GrowthBookPayload(encrypted, decrypt: nil) }
        let plain = try GrowthBookPayload(encrypted) { _ in #"{"f": {"defaultValue": 1}}"# }
        #expect(plain.features.map(\.key) == ["f"])
    }

    @Test func stickyBucketsKeepAVariationWhenWeightsChange() async throws {
        func payload(_ weights: String) -> Data {
            Data(
                """
                {"features": {"color": {"defaultValue": "red", "rules": [{"key": "sticky-test", "hashAttribute": "id",
                  "variations": ["red", "blue"], "weights": \(weights), "meta": [{"key": "0"}, {"key": "1"}]}]}}}
                """.utf8
            )
        }
        let store = InMemoryStateStore()
        let fetcher = InMemoryFetcher(payload("[0, 1]"))
        let source = try source(fetcher, store: store)
        try await source.update()
        #expect(try source.activeVariants().first?.variant.name == "1")
        #expect(try !store.stickyBuckets(source: "GrowthBook").isEmpty)
        fetcher.serve(payload("[1, 0]"))
        try await source.update()
        // Everyone new would get "0"; this device keeps "1".
        #expect(try source.activeVariants().first?.variant.name == "1")
        #expect(source.summary.contains("1 features · 1 experiments · polling"))
    }

    @Test func explainsEachRuleInOrder() async throws {
        let payload = Data(
            """
            {"features": {"cta": {"defaultValue": "grey", "rules": [
              {"condition": {"country": "CA"}, "force": "red"},
              {"coverage": 0, "force": "orange"},
              {"key": "cta-test", "variations": ["grey", "green"], "namespace": ["ns", 0, 1], "coverage": 1}]}}}
            """.utf8
        )
        let store = InMemoryStateStore()
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        let source = GrowthBookSource(
            store: store,
            device: device,
            attributes: ["country": "US"],
            fetcher: PlainPayloadFetcher(InMemoryFetcher(payload))
        )
        try await source.update()
        let decision = try #require(source.decisionSteps(for: ["cta-test"])["cta-test"])
        #expect(decision.first?.detail == "an experiment rule in feature cta: variations by weight, hashed on the user")
        #expect(decision.dropFirst().first?.detail == "country US · id device-1")
        let steps = decision.dropFirst(2).map(\.detail)
        #expect(steps.contains("condition {\"country\":\"CA\"} is false: skipped"))
        #expect(steps.contains("not in the rollout (coverage 0.0)"))
        #expect(steps.contains("inside namespace [\"ns\",0,1]"))
        #expect(steps.contains("hash attribute id = device-1"))
        let bucket = try #require(steps.first { $0.hasPrefix("bucket ") })
        #expect(bucket.contains("ranges [0.0, 0.5) [0.5, 1.0) (coverage 1.0): variation"))
        #expect(steps.last?.hasPrefix("decides: variation") == true)
        // Force and rollout rules are described as what they are.
        let all = source.decisionSteps(for: nil)
        #expect(
            all["cta: force"]?.first?.detail
                == #"a force rule of feature cta: the feature is "red", when {"country":"CA"}"#
        )
        #expect(
            all["cta: rollout"]?.first?.detail == #"a rollout rule of feature cta: "orange" for 0 % of users by id"#
        )
    }
}
