import Foundation
import Testing

@testable import GrowthBook

/// A payload's checks read only the rules their decode did not clear
/// (``FeatureRule/needsChecks``: ``RuleChecker/isRegular(_:)`` and
/// ``Condition/hasOnlyPlainTests(count:)``): they must find exactly what
/// the checks of every rule find, and the usual rules must be cleared.
struct RuleCheckerTests {
    /// Usual rules of each kind, every member well formed.
    private static let usualRules: [JSONValue] = [
        ["force": true, "condition": ["country": ["$in": ["US", "CA"]], "age": ["$gte": 18]]],
        ["force": "on", "coverage": 0.4, "hashAttribute": "id", "seed": "s", "hashVersion": 2],
        ["force": 1, "range": [0, 0.5], "condition": ["plan": "pro", "beta": true, "score": 3]],
        [
            "key": "exp", "variations": [0, 1, 2], "weights": [0.5, 0.25, 0.25], "namespace": ["ns", 0, 0.8],
            "condition": ["version": ["$vgte": "1.2.0"]], "coverage": 1, "hashAttribute": "id",
            "fallbackAttribute": "deviceId", "hashVersion": 2, "bucketVersion": 1, "minBucketVersion": 0,
            "meta": [["key": "0"], ["key": "1"], ["key": "2"]], "ranges": [[0, 0.5], [0.5, 1]], "id": "r1",
            "filters": [["seed": "f", "ranges": [[0, 0.5]], "hashVersion": 2, "attribute": "id"]],
            "name": "Experiment", "phase": "1", "seed": "exp",
        ],
        ["key": "exp2", "variations": ["a", "b"], "condition": .null, "hashVersion": .null],
    ]

    /// Values a member may take, good and bad: every one is tried in every usual rule.
    private static let values: [JSONValue] = [
        .null, true, false, 0, 1, 2, -1, 0.5, 1.5, 2_147_483_648, "", "x", [], [1], [0, 1], [0.5, 0.5], [0.5, 0.6],
        [0.2, 0.3, 0.5], [[0, 1]], [[0, 2]], [0, 1, 2], ["ns", 0, 1], ["ns", 0.9, 0.1], ["ns", 0, "1"], [:],
        ["a": 1], [["key": "0"]], [1, 2], [["seed": "s", "ranges": [[0, 1]]]],
        [["seed": 1, "ranges": [[0, 1]]]], [["ranges": [[0, 1]], "hashVersion": 3]], [["id": "f", "condition": [:]]],
    ]

    /// Conditions good and bad: plain tests, operators the checks fault,
    /// and shapes only the checks read (a repeated name, logical operators).
    private static let conditions: [String] = [
        #"{"a": 1}"#, #"{"a": "x", "b": true}"#, #"{"a": {"$in": ["x"]}}"#, #"{"a": {"$nin": ["x", "y"]}}"#,
        #"{"a": {"$gt": 1}}"#, #"{"a": {"$vlt": "2"}}"#, #"{"a": {"$regex": "(a"}}"#, #"{"a": {"$regex": "a"}}"#,
        #"{"a": {"$regexx": "a"}}"#, #"{"$foo": 1}"#, #"{"a": {"$gt": 1, "$nope": 2}}"#,
        #"{"a": {"$bad": 1}, "a": 2}"#, #"{"$or": [{"a": 1}]}"#, #"{"$or": {"a": 1}}"#, #"{"$not": {"a": {"$x": 1}}}"#,
        #"{"a": {"$elemMatch": {"$eq": 1, "$nope": 2}}}"#, #"{"a": {"$size": {"$gtx": 1}}}"#, #"{"a.b": 1}"#,
        #"{"é": "é"}"#, #"{}"#, #"[1]"#, #""text""#, "0", "null",
    ]

    /// Rules from the usual ones, each with one member set to each value (or taken out).
    private static func variants() -> [JSONValue] {
        var rules = usualRules
        let names = [
            "id", "key", "condition", "force", "coverage", "range", "seed", "hashAttribute", "fallbackAttribute",
            "hashVersion", "variations", "contextualVariations", "contextualBanditRef", "weights", "namespace",
            "meta", "ranges", "filters", "parentConditions", "bucketVersion", "minBucketVersion",
        ]
        for rule in usualRules {
            let members = rule.members ?? []
            for name in names {
                rules.append(.object(members.filter { $0.key != name }))
                for value in values {
                    rules.append(.object(members.filter { $0.key != name } + [.init(name, value)]))
                }
            }
            for condition in conditions {
                let parsed = try? JSONValue.parse(condition)
                rules.append(.object(members.filter { $0.key != "condition" } + [.init("condition", parsed ?? .null)]))
            }
        }
        return rules + [.null, 1, "rule", [["force": 1]]]
    }

    @Test func theChecksFindTheSameWhetherOrNotTheyReadTheClearedRules() {
        let rules = Self.variants()
        // In features of a few rules each, as payloads have them.
        // Features that are not objects, or whose rules are not a list, among them.
        let odd: [JSONValue.Member] = [
            .init("n", 1), .init("s", "x"), .init("r", ["rules": 1]), .init("o", ["rules": ["a": 1]]), .init("e", [:]),
        ]
        let features = JSONValue.object(
            stride(from: 0, to: rules.count, by: 3).map { start in
                .init(
                    "f\(start)",
                    ["defaultValue": 0, "rules": .array(Array(rules[start..<min(start + 3, rules.count)]))]
                )
            } + odd
        )
        let findings = PayloadLinter().findingsOfBothChecks(features: features, bandits: nil)
        #expect(findings.everyRule.count > 300)  // the variants have many problems
        #expect(findings.clearedSkipped == findings.everyRule)
    }

    @Test func theUsualRulesAreClearedAndTheChecksReadTheOthers() throws {
        for rule in Self.usualRules {
            #expect(!FeatureRule(feature: "f", json: rule).needsChecks, "\(rule)")
        }
        #expect(!GrowthBookFeature(id: "f", json: ["defaultValue": 1, "rules": .array(Self.usualRules)]).needsChecks)
        #expect(!GrowthBookFeature(id: "f", json: ["defaultValue": 1]).needsChecks)
        for feature: JSONValue in [1, ["rules": 1], ["rules": .array(Self.usualRules + [["force": 1, "seed": 2]])]] {
            #expect(GrowthBookFeature(id: "f", json: feature).needsChecks, "\(feature)")
        }
        let faulty: [JSONValue] = [
            ["force": 1, "coverage": "0.5"], ["force": 1, "condition": ["a": ["$regex": "(a"]]],
            ["key": "e", "variations": [0, 1], "weights": [0.5, 0.6]], ["force": 1, "condition": [1]],
            ["force": 1, "hashVersion": 3], 1,
        ]
        for rule in faulty {
            #expect(FeatureRule(feature: "f", json: rule).needsChecks, "\(rule)")
        }
    }

    /// Through a whole payload: a rule the checks fault is still reported
    /// with its place, and a refusing error still refuses the payload.
    @Test func aPayloadStillReportsWhatItsClearedRulesSitBeside() throws {
        let text = """
            {"features": {"a": {"defaultValue": 0, "rules": [{"force": 1, "coverage": 0.5},
              {"force": 2, "condition": {"x": {"$nope": 1}}}]},
             "b": {"defaultValue": 0, "rules": [{"force": 1, "seed": 7}]}}}
            """
        #expect(throws: GrowthBookPayload.Invalid.self) { try GrowthBookPayload(Data(text.utf8), decrypt: nil) }
        let accepted = text.replacingOccurrences(of: #""seed": 7"#, with: #""seed": "7""#)
        let payload = try GrowthBookPayload(Data(accepted.utf8), decrypt: nil)
        #expect(
            payload.warnings.map(\.description) == [
                "payload:2:45: warning: unknown operator \"$nope\" in the condition of rule 2 of feature \"a\": the rule never matches"
            ]
        )
    }
}
