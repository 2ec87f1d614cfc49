import Foundation
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct PayloadLinterTests {
    private func check(_ text: String, catalogKeys: [String: String] = [:]) -> [String] {
        PayloadLinter().check(text, file: "gb.json", claimedKeys: catalogKeys).map {
            "\($0.position?.description ?? "-"): \($0.severity.rawValue): \($0.message)"
        }
    }

    @Test func aCleanPayloadHasNoProblems() {
        #expect(
            check(
                #"{"features": {"f": {"defaultValue": 1, "rules": [{"key": "e", "variations": [1, 2], "weights": [0.5, 0.5], "coverage": 0.5, "namespace": ["ns", 0, 0.5], "condition": {"a": 1}}]}}}"#
            ).isEmpty
        )
    }

    /// Numbers out of range and a condition that is not an object still
    /// evaluate in every SDK: warnings, with their places.
    @Test func reportsEveryRuleMistakeWithItsPosition() {
        let text = """
            {"features": {"cta": {"rules": [{"variations": ["a"], "coverage": 2, "namespace": ["ns", 0.9, 0.1],
              "condition": [1], "weights": [0.3, 0.3]}]}}}
            """
        #expect(
            check(text) == [
                "1:48: warning: rule 1 of feature \"cta\" has 1 variation(s); GrowthBook runs no experiment with fewer than two",
                "2:32: warning: weights of rule 1 of feature \"cta\" do not give one number per variation; GrowthBook splits equally instead",
                "1:67: warning: \"coverage\" of rule 1 of feature \"cta\" is not from 0 to 1; GrowthBook reads it as the nearest of the two",
                "1:83: warning: \"namespace\" of rule 1 of feature \"cta\" should be [id, start, end] with 0 <= start <= end <= 1; only users hashed from start up to end are in it",
                "2:16: warning: \"condition\" of rule 1 of feature \"cta\" should be an object, found an array; GrowthBook reads a list or text as conditions on attributes named 0, 1, …, and a number or true as none",
            ]
        )
    }

    /// A rule that can never match is evaluated by every SDK (it just never
    /// matches), so an app keeps the payload; `lab check` calls it an error.
    @Test func unknownOperatorsAndInvalidPatternsAreErrorsAnAppStillAccepts() throws {
        let text = """
            {"features": {"cta": {"defaultValue": 1, "rules": [{"force": 2, "condition": {"x": {"$regexx": "a"}}},
              {"force": 3, "condition": {"$or": [{"ua": {"$regex": "(a"}}, {"$xor": []}]}},
              {"force": 4, "condition": {"tags": {"$elemMatch": {"$eq": "a", "$nope": 1}}, "v": {"$vgte": "1.2"}}}]}}}
            """
        #expect(
            check(text) == [
                "1:96: error: unknown operator \"$regexx\" in the condition of rule 1 of feature \"cta\": the rule never matches",
                "2:56: error: invalid pattern \"(a\" for \"$regex\" in the condition of rule 2 of feature \"cta\" (Unterminated group at character 3, as JavaScript reads it): it never matches",
                "2:73: error: unknown operator \"$xor\" in the condition of rule 2 of feature \"cta\": the rule never matches",
                "3:75: error: unknown operator \"$nope\" in the condition of rule 3 of feature \"cta\": the rule never matches",
            ]
        )
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        #expect(payload.warnings.count == 4)
    }

    /// `$` and a combining mark are one `Character` in Swift, whose
    /// `hasPrefix("$")` is false; the SDK and the evaluator read the first
    /// code unit, so the checks do too: an operator, unknown, never matching.
    @Test func aNameWhoseFirstCodeUnitIsDollarIsAnOperator() throws {
        let text =
            #"{"features": {"cta": {"defaultValue": 1, "rules": [{"force": 2, "condition": {"x": {"$\u0301": 1}}}]}}}"#
        #expect(
            check(text) == [
                "1:96: error: unknown operator \"$\u{301}\" in the condition of rule 1 of feature \"cta\": the rule never matches"
            ]
        )
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        var evaluator = GrowthBookEvaluator(context: payload.context(attributes: .object([.init("x", .number(1))])))
        #expect(evaluator.evaluateFeature("cta").value == .number(1))
    }

    @Test func contextualBanditsOfTheWrongShapeAreErrorsAndMissingOnesWarnings() {
        let text = """
            {"features": {"cta": {"rules": [{"key": "b", "contextualVariations": [1, 2], "contextualBanditRef": "cb"},
              {"key": "c", "contextualVariations": "x", "contextualBanditRef": "gone"}]}},
             "contextualBandits": {"cb": {"banditVersion": "3", "contexts": [{"condition": [], "weights": [2, "x"]}, 7]},
              "other": []}}
            """
        #expect(
            check(text) == [
                "2:40: error: \"contextualVariations\" of rule 2 of feature \"cta\" must be an array, found a string",
                "3:48: error: \"banditVersion\" of contextual bandit \"cb\" must be a number, found a string",
                "3:80: error: \"condition\" of leaf 1 of contextual bandit \"cb\" must be an object, found an array",
                "3:95: error: \"weights\" of leaf 1 of contextual bandit \"cb\" must be a list of numbers from 0 to 1",
                "3:106: error: leaf 2 of contextual bandit \"cb\" must be an object, found a number",
                "4:12: error: contextual bandit \"other\" must be an object, found an array",
                "2:68: warning: rule 2 of feature \"cta\" refers to contextual bandit \"gone\", which the payload does not have; GrowthBook runs it on its own weights",
            ]
        )
    }

    @Test func weightsThatDoNotAddUpAreAWarning() {
        #expect(
            check(#"{"features": {"f": {"rules": [{"variations": [1, 2], "weights": [0.7, 0.7]}]}}}"#)
                == [
                    "1:65: warning: weights of rule 1 of feature \"f\" add up to 1.4, not 1; GrowthBook splits equally instead"
                ]
        )
    }

    @Test func aFeatureACatalogAlsoAssignsIsAnError() {
        #expect(
            check(
                #"{"features": {"color": {"defaultValue": "red"}}}"#,
                catalogKeys: ["color": "experiment \"Local/Button\""]
            )
                == [
                    "1:15: error: feature \"color\" is also assigned by experiment \"Local/Button\"; the two can be active together"
                ]
        )
    }

    @Test func malformedAndEncryptedPayloads() {
        #expect(check("{\"features\": [}") == ["1:15: error: malformed JSON: expected a value, found character '}'"])
        #expect(check(#"{"encryptedFeatures": "x.y"}"#).first?.contains("warning: the features are encrypted") == true)
    }
}
