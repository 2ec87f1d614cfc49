import Foundation
import Synchronization
import Testing

@testable import GrowthBook

/// The tracking callback, and sticky buckets kept by a service between evaluators.
@Suite struct TrackingAndStickyBucketTests {
    static func payload(weights: String) throws -> GrowthBookPayload {
        let text = """
            {"features": {
              "button": {"defaultValue": "red", "rules": [{"key": "button-test", "variations": ["red", "blue"],
                "weights": \(weights), "meta": [{"key": "control"}, {"key": "treatment"}]}]},
              "banner": {"defaultValue": false, "rules": [{"force": true}]}
            }}
            """
        return try GrowthBookPayload(Data(text.utf8), decrypt: nil)
    }

    static let user = JSONValue.object([.init("id", .string("user-7"))])

    @Test func theCallbackFiresOncePerExperimentAndVariationOnlyWhenBucketed() throws {
        let tracked = Mutex<[String]>([])
        var evaluator = GrowthBookEvaluator(
            context: try Self.payload(weights: "[0.5, 0.5]").context(attributes: Self.user)
        )
        evaluator.onExperimentViewed = { experiment, result in
            tracked.withLock { $0.append("\(experiment.key)/\(result.key)") }
        }
        let first = evaluator.evaluateFeature("button")
        _ = evaluator.evaluateFeature("button")
        _ = evaluator.evaluateFeature("banner")  // a force rule runs no experiment
        #expect(tracked.withLock { $0 } == ["button-test/\(first.experimentResult?.key ?? "?")"])
        // Forced by the context: not bucketed, not tracked.
        evaluator.context.forcedVariations = ["button-test": 1]
        _ = evaluator.evaluateFeature("button")
        #expect(tracked.withLock { $0.count } == 1)
    }

    @Test func aServiceKeepsTheVariationWhenTheWeightsChange() throws {
        let service = InMemoryStickyBucketService()
        var first = GrowthBookEvaluator(context: try Self.payload(weights: "[0.5, 0.5]").context(attributes: Self.user))
        first.useStickyBuckets(service)
        let before = try #require(first.evaluateFeature("button").experimentResult)
        #expect(service.all["id||user-7"]?["assignments"]?["button-test__0"]?.stringValue == before.key)
        // Every new user now gets the other variation; this one keeps theirs.
        let other = before.variationId == 0 ? "[0, 1]" : "[1, 0]"
        var second = GrowthBookEvaluator(context: try Self.payload(weights: other).context(attributes: Self.user))
        second.useStickyBuckets(service)
        let after = try #require(second.evaluateFeature("button").experimentResult)
        #expect(after.variationId == before.variationId && after.stickyBucketUsed)
        // Without the service, the new weights decide.
        var fresh = GrowthBookEvaluator(context: try Self.payload(weights: other).context(attributes: Self.user))
        #expect(fresh.evaluateFeature("button").experimentResult?.variationId == 1 - before.variationId)
    }
}
