import Foundation
import Testing

@testable import GrowthBook
@testable import Laboratory

/// Laboratory's experiments come from the rules the evaluator decoded, so
/// the console, `lab serve` and the evaluator never read a rule differently.
@Suite struct GrowthBookExperimentsTests {
    private static func experiments(_ json: String) throws -> GrowthBookExperiments {
        GrowthBookExperiments(try GrowthBookPayload(Data(json.utf8), decrypt: nil))
    }

    @Test func aRuleWithForceAndVariationsIsTheForceRuleItEvaluatesAs() throws {
        let experiments = try Self.experiments(
            #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "both", "force": 1, "variations": [2, 3]}]}}}"#
        )
        #expect(experiments.all.map(\.name) == ["f: force"])
        var evaluator = GrowthBookEvaluator(context: experiments.payload.context(attributes: ["id": "u"]))
        #expect(evaluator.evaluateFeature("f").source == .force)
    }

    @Test func anExperimentRuleWithAnEmptyKeyIsNamedAfterItsFeatureAsTheSDKTracksIt() throws {
        let experiments = try Self.experiments(
            #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "", "variations": [2, 3]}]}}}"#
        )
        #expect(experiments.all.map(\.name) == ["f"])
        var evaluator = GrowthBookEvaluator(context: experiments.payload.context(attributes: ["id": "u"]))
        #expect(evaluator.evaluateFeature("f").experimentResult.map { _ in true } == true)
        #expect(experiments.experiment(at: RulePosition(feature: "f", index: 0))?.name == "f")
        #expect(experiments.featuresByExperiment == ["f": ["f"]])
    }

    @Test func aRepeatedFeatureKeyIsReadAndServedAsTheEvaluatorReadsIt() throws {
        let experiments = try Self.experiments(
            #"""
            {"features": {
              "f": {"defaultValue": 1, "rules": [{"force": 5}]},
              "f": {"defaultValue": 2, "rules": [{"key": "later", "variations": [3, 4]}]}
            }}
            """#
        )
        #expect(experiments.all.map(\.name) == ["f: force"])
        let shared = ForcedRuleRewriter.rewrite(
            experiments,
            source: "GrowthBook",
            forcing: [],
            deviceAttributes: .object([])
        )
        #expect(shared.features.map(\.key) == ["f"])
        #expect(shared.features.first?.value["defaultValue"] == .number(1))
    }

    @Test func targetingAttributesAreThoseTheDecodedRulesRead() throws {
        let experiments = try Self.experiments(
            #"""
            {"features": {"f": {"defaultValue": 0, "rules": [
              {"condition": {"country": "NL"}, "force": 1},
              {"condition": {"plan": "pro"}, "force": 2, "coverage": 0.5, "hashAttribute": ""},
              {"key": "e", "condition": {"age": {"$gt": 3}}, "variations": [0, 1], "hashAttribute": "device",
               "fallbackAttribute": "anonymous"},
              {"condition": {"ignored": true}}
            ]}}}
            """#
        )
        #expect(
            experiments.targetingAttributes == [
                "country": ["f: force"], "plan": ["f: rollout"], "id": ["f: rollout"], "age": ["e"],
                "device": ["e"], "anonymous": ["e"],
            ]
        )
    }
}

/// A forced variation's bucket version is the same in every release, so a
/// served payload does not change (and sticky buckets stay) across an upgrade.
@Suite struct ForcedBucketVersionTests {
    @Test func theBucketVersionOfAForcedVariationIsStable() {
        // Values written by earlier releases, which hashed "experiment\0variant\0index".
        #expect(
            ForcedRuleRewriter.bucketVersion(experiment: "checkout-test", variant: "Blue", index: 1) == 2_138_100_471
        )
        #expect(ForcedRuleRewriter.bucketVersion(experiment: "é", variant: "", index: 12) == 1_640_374_670)
    }
}
