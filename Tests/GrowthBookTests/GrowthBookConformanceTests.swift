import Foundation
import LabDrivers
import LabTestSupport
import Testing

@testable import GrowthBook

/// GrowthBook's cross-SDK cases, run as its JavaScript SDK runs them
/// (`json.test.ts`), one test per case so a failure names it.
/// Read from `../shared/conformance/growthbook/cases.json`; skipped with a
/// message where that folder is absent (a fresh clone on its own).
enum GrowthBookCases {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/growthbook/cases.json").path

    static let root: JSONValue? = {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return try? JSONValue.parse(text)
    }()

    static let missing = "GrowthBook cases not found: expected at ../shared/conformance/growthbook/cases.json"

    /// The cases of one section, each an array. A section missing from the
    /// file or empty gives one case that fails, so a trimmed file cannot
    /// pass by running nothing; only the whole file missing skips.
    static func section(_ name: String) -> [Case] {
        let cases = (root?[name]?.elements ?? []).enumerated().map {
            Case(section: name, index: $0.offset, values: $0.element.elements ?? [])
        }
        return cases.isEmpty ? [Case(section: name, index: -1, values: [])] : cases
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var section: String
        var index: Int
        var values: [JSONValue]
        var testDescription: String {
            if index < 0 { return "section \(section) is missing or empty" }
            if case .string(let name)? = values.first { return name }
            return "case \(index)"
        }

        /// The case's values; records a failure for a missing or empty section (or a case that is not an array).
        func present() -> [JSONValue]? {
            if index < 0 {
                Issue.record("section \"\(section)\" is missing or empty in \(GrowthBookCases.path)")
                return nil
            }
            if values.count < 2 {
                Issue.record("case \(index) of \(section) is not an array of at least 2 values")
                return nil
            }
            return values
        }
    }

    /// Both sides floored to 1e-8, as the JavaScript test does.
    static func floored(_ value: Double) -> Double { (value * 1e8).rounded(.down) / 1e8 }
}

@Suite(.requires(GrowthBookCases.root != nil, Comment(rawValue: GrowthBookCases.missing)))
struct GrowthBookConformanceTests {
    @Test(arguments: GrowthBookCases.section("evalCondition"))
    func evalCondition(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        var groups: [String: [JSONValue]] = [:]
        if values.count > 4, let members = values[4].members {
            for member in members { groups[member.key] = member.value.elements ?? [] }
        }
        let result = ConditionEvaluator.evaluate(values[1], attributes: values[2], savedGroups: groups)
        #expect(result == values[3].boolValue)
    }

    @Test(arguments: GrowthBookCases.section("getBucketRange"))
    func getBucketRange(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        let arguments = values[1].elements ?? []
        let weights = arguments[2].elements?.compactMap(\.numberValue)
        let ranges = BucketMath.bucketRanges(
            count: Int(arguments[0].numberValue ?? 0),
            coverage: arguments[1].numberValue ?? 1,
            weights: weights
        )
        let expected = (values[2].elements ?? []).map { pair in (pair.elements ?? []).compactMap(\.numberValue) }
        #expect(
            ranges.map { [GrowthBookCases.floored($0.lower), GrowthBookCases.floored($0.upper)] }
                == expected.map { $0.map(GrowthBookCases.floored) }
        )
    }

    @Test(arguments: GrowthBookCases.section("chooseVariation"))
    func chooseVariation(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        let ranges = (values[2].elements ?? []).map { pair in
            let bounds = (pair.elements ?? []).compactMap(\.numberValue)
            return HalfOpenRange(lower: bounds[0], upper: bounds[1])
        }
        let chosen = BucketMath.chooseVariation(values[1].numberValue ?? -1, ranges: ranges)
        #expect((chosen ?? -1) == Int(values[3].numberValue ?? 0))
    }

    @Test(arguments: GrowthBookCases.section("inNamespace"))
    func inNamespace(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        let namespace = values[2].elements ?? []
        let result = BucketMath.inNamespace(
            values[1].stringValue ?? "",
            namespace: BucketMath.Namespace(
                id: namespace[0].stringValue ?? "",
                start: namespace[1].numberValue ?? 0,
                end: namespace[2].numberValue ?? 0
            )
        )
        #expect(result == values[3].boolValue)
    }

    @Test(arguments: GrowthBookCases.section("getEqualWeights"))
    func getEqualWeights(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        let weights = BucketMath.equalWeights(Int(values[0].numberValue ?? 0))
        #expect(
            weights.map(GrowthBookCases.floored)
                == (values[1].elements ?? []).compactMap(\.numberValue).map(GrowthBookCases.floored)
        )
    }

    @Test(arguments: GrowthBookCases.section("run"))
    func run(_ testCase: GrowthBookCases.Case) throws {
        guard let values = testCase.present() else { return }
        let result = try GrowthBookCases.user(values[1]).run(values[2])
        #expect(GrowthBookCases.same(result.value, values[3]), "value \(result.value)")
        #expect(result.inExperiment == values[4].boolValue)
        #expect(result.hashUsed == values[5].boolValue)
    }

    @Test func theComparisonIsNotVacuous() {
        #expect(!GrowthBookCases.same(.object([.init("a", .number(1))]), .object([.init("a", .number(2))])))
        #expect(
            !GrowthBookCases.same(
                .object([.init("a", .number(1)), .init("b", .bool(true))]),
                .object([.init("a", .number(1))])
            )
        )
        #expect(!GrowthBookCases.same(.object([]), .object([.init("a", .null)])))
        #expect(
            GrowthBookCases.same(
                .object([.init("b", .null), .init("a", .number(1))]),
                .object([.init("a", .number(1))])
            )
        )
    }

    /// Through the front door: the documents come from an asynchronous
    /// service, and what the user's evaluation saves must reach it.
    @Test(arguments: GrowthBookCases.section("stickyBucket"))
    func stickyBucket(_ testCase: GrowthBookCases.Case) async throws {
        guard let values = testCase.present() else { return }
        let service = GrowthBookCases.StickyDocuments(values[2].elements ?? [])
        let user = try await GrowthBookCases.user(values[1], stickyBuckets: service)
        let result = user.evaluate(values[3].stringValue ?? "")
        #expect(
            GrowthBookCases.same(result.experimentResult?.json ?? .null, values[4]),
            "got \(JavaScriptSemantics.stringify(result.experimentResult?.json) ?? "null")"
        )
        // Saves reach the service in the background: wait for the expected documents.
        let expected = values[5].members ?? []
        var saved = JSONValue.null
        let arrived = await Poll.until(seconds: 10, every: .milliseconds(5)) {
            saved = await service.documents(expected.map(\.key))
            return GrowthBookCases.same(saved, values[5])
        }
        #expect(arrived, "got \(JavaScriptSemantics.stringify(saved) ?? "")")
    }

    /// The cases' sticky bucket steps on the evaluator itself, where the
    /// documents are loaded and read back at once.
    @Test(arguments: GrowthBookCases.section("stickyBucket"))
    func stickyBucketOnTheEvaluator(_ testCase: GrowthBookCases.Case) {
        guard let values = testCase.present() else { return }
        var evaluator = GrowthBookEvaluator(context: GrowthBookContext(json: values[1]))
        evaluator.loadStickyBuckets(from: values[2].elements ?? [])
        let result = evaluator.evaluateFeature(values[3].stringValue ?? "")
        #expect(
            GrowthBookCases.same(result.experimentResult?.json ?? .null, values[4]),
            "got \(JavaScriptSemantics.stringify(result.experimentResult?.json) ?? "null")"
        )
        let docs = JSONValue.object((evaluator.stickyBucketDocs ?? [:]).map { .init($0.key, $0.value) })
        #expect(GrowthBookCases.same(docs, values[5]), "got \(JavaScriptSemantics.stringify(docs) ?? "")")
    }

    /// Contextual bandits: leaves chosen by condition, their weights, and
    /// `leafId`, `variationWeights` and `banditVersion` in the results.
    @Test(arguments: GrowthBookCases.section("contextualBandit"))
    func contextualBandit(_ testCase: GrowthBookCases.Case) throws {
        guard let values = testCase.present() else { return }
        let result = try GrowthBookCases.user(values[1]).evaluate(values[2].stringValue ?? "")
        #expect(GrowthBookCases.same(result.json, values[3]), "got \(JavaScriptSemantics.stringify(result.json) ?? "")")
    }

    @Test(arguments: GrowthBookCases.section("feature"))
    func feature(_ testCase: GrowthBookCases.Case) throws {
        guard let values = testCase.present() else { return }
        let result = try GrowthBookCases.user(values[1]).evaluate(values[2].stringValue ?? "")
        #expect(GrowthBookCases.same(result.json, values[3]), "got \(JavaScriptSemantics.stringify(result.json) ?? "")")
    }
}

extension GrowthBookCases {
    /// A case's SDK context through the front door: its features, saved
    /// groups and bandits as a payload (checked as any payload is), the rest
    /// as the client's options and the user's attributes and page.
    static func user(_ context: JSONValue) throws -> GrowthBookUser {
        try client(context).user(
            GrowthBookAttributes(context["attributes"] ?? .object([])),
            url: context["url"]?.stringValue
        )
    }

    /// A case's user with sticky buckets kept by `service`.
    static func user(_ context: JSONValue, stickyBuckets service: StickyDocuments) async throws -> GrowthBookUser {
        try await client(context).user(
            GrowthBookAttributes(context["attributes"] ?? .object([])),
            url: context["url"]?.stringValue,
            stickyBuckets: service
        )
    }

    private static func client(_ context: JSONValue) throws -> GrowthBookClient {
        var payload: [JSONValue.Member] = [.init("features", context["features"] ?? .object([]))]
        for name in ["savedGroups", "contextualBandits"] {
            if let value = context[name] { payload.append(.init(name, value)) }
        }
        var forced: [String: Int] = [:]
        for member in context["forcedVariations"]?.members ?? [] {
            if let index = JavaScriptSemantics.integer(member.value.numberValue) { forced[member.key] = index }
        }
        return try GrowthBookClient(
            payload: Data(JSONValue.object(payload).jsonText.utf8),
            options: .init(
                forcedVariations: forced,
                enabled: context["enabled"]?.boolValue ?? true,
                qaMode: context["qaMode"]?.boolValue ?? false
            )
        )
    }

    /// A sticky bucket service as an app's database would be: documents by
    /// `attributeName||attributeValue`, reached asynchronously.
    actor StickyDocuments: AsyncStickyBucketService {
        private var saved: [String: JSONValue] = [:]

        init(_ documents: [JSONValue]) {
            for document in documents { saved[Self.key(document)] = document }
        }

        func assignments(attributeName: String, attributeValue: String) async throws -> JSONValue? {
            saved["\(attributeName)||\(attributeValue)"]
        }

        func saveAssignments(_ document: JSONValue) async throws {
            saved[Self.key(document)] = document
        }

        /// The documents under `keys`, as an object by key.
        func documents(_ keys: [String]) -> JSONValue {
            .object(keys.compactMap { key in saved[key].map { .init(key, $0) } })
        }

        private static func key(_ document: JSONValue) -> String {
            "\(document["attributeName"]?.stringValue ?? "")||\(JavaScriptSemantics.string(document["attributeValue"]))"
        }
    }

    /// Deep equality that ignores object member order, as Jest's `toEqual` does;
    /// `null` members on our side stand for properties the SDK leaves undefined.
    static func same(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (.object(let a), .object(let b)):
            let keys = Set(b.map(\.key))
            for member in a where !keys.contains(member.key) && member.value != .null { return false }
            return b.allSatisfy { member in
                a.first { $0.key == member.key }.map { same($0.value, member.value) } ?? false
            }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.number(let a), .number(let b)):
            return abs(a - b) < 1e-9
        default:
            return actual == expected
        }
    }
}
