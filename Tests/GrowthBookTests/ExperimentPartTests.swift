import Foundation
import Testing

@testable import GrowthBook

/// The experiment part of results one evaluator hands out in turn: it fills
/// the last part again once the caller has let go of it, and keeps whom the
/// last experiment hashed when the next hashes the same attribute.
@Suite struct ExperimentPartTests {
    /// Three experiments: two hash `id`, one `company`; every user is in each.
    static func context(id: String, company: String) throws -> GrowthBookContext {
        let text = """
            {"features": {
              "a": {"defaultValue": 0, "rules": [{"key": "exp-a", "variations": [1, 2], "meta": [{"key": "x"}, {"key": "y"}]}]},
              "b": {"defaultValue": 0, "rules": [{"key": "exp-b", "hashAttribute": "company", "variations": [3, 4]}]},
              "c": {"defaultValue": 0, "rules": [{"key": "exp-c", "variations": [5, 6], "seed": "s"}]}
            }}
            """
        return try GrowthBookPayload(Data(text.utf8), decrypt: nil).context(
            attributes: .object([.init("id", .string(id)), .init("company", .string(company))])
        )
    }

    /// What a result says of its experiment, as a fresh evaluator reports it.
    static func expected(_ feature: String, id: String, company: String) throws -> ExperimentResult {
        var fresh = GrowthBookEvaluator(context: try context(id: id, company: company))
        return try #require(fresh.evaluateFeature(feature).experimentResult)
    }

    @Test func eachResultReportsItsOwnExperimentAndWhomItHashed() throws {
        var evaluator = GrowthBookEvaluator(context: try Self.context(id: "u1", company: "acme"))
        // Each result let go of before the next evaluation, so the part is filled again every time.
        for feature in ["a", "b", "c", "a", "c", "b"] {
            let result = try #require(evaluator.evaluateFeature(feature).experimentResult)
            #expect(result == (try Self.expected(feature, id: "u1", company: "acme")), "feature \(feature)")
        }
    }

    @Test func aResultHeldOnToKeepsItsExperiment() throws {
        var evaluator = GrowthBookEvaluator(context: try Self.context(id: "u1", company: "acme"))
        let held = evaluator.evaluateFeature("a")
        let next = evaluator.evaluateFeature("b")
        let third = evaluator.evaluateFeature("c")
        #expect(held.experimentResult == (try Self.expected("a", id: "u1", company: "acme")))
        #expect(next.experimentResult == (try Self.expected("b", id: "u1", company: "acme")))
        #expect(third.experimentResult == (try Self.expected("c", id: "u1", company: "acme")))
        #expect(held.experiment?["key"] == .string("exp-a"))
    }

    @Test func newAttributesAreReportedAfterTheContextChanges() throws {
        var evaluator = GrowthBookEvaluator(context: try Self.context(id: "u1", company: "acme"))
        #expect(evaluator.evaluateFeature("a").experimentResult?.attributeValue == .string("u1"))
        evaluator.context = try Self.context(id: "u2", company: "globex")
        // The same attribute, `id`, hashed first again: its new value, not the last part's.
        let result = try #require(evaluator.evaluateFeature("c").experimentResult)
        #expect(result == (try Self.expected("c", id: "u2", company: "globex")))
        #expect(result.attributeValue == .string("u2"))
    }

    @Test func copiesOfAnEvaluatorKeepTheirOwnParts() throws {
        var first = GrowthBookEvaluator(context: try Self.context(id: "u1", company: "acme"))
        _ = first.evaluateFeature("b")  // the part now holds `company`
        var second = first
        second.context = try Self.context(id: "u3", company: "initech")
        let fromSecond = try #require(second.evaluateFeature("a").experimentResult)
        let fromFirst = try #require(first.evaluateFeature("c").experimentResult)
        #expect(fromSecond == (try Self.expected("a", id: "u3", company: "initech")))
        #expect(fromFirst == (try Self.expected("c", id: "u1", company: "acme")))
    }
}
