import Foundation
import LabTestSupport
import Testing

@testable import GrowthBook

/// The library against GrowthBook's own JavaScript SDK
/// (`../shared/reference/growthbook-js`, run with `node`) on payloads and
/// users generated from a seed: every field of every evaluation must agree.
///
/// The generator stays inside what both are known to read alike; the
/// differences issue 25 lists (an empty `seed`, paths through arrays,
/// versions of missing values, `$nor: []`, regex dialects and long inputs,
/// `fallbackAttribute`, integer-like member names, falsy `$elemMatch`
/// elements, `Number()` of strings) get their own tests when they are fixed.
/// `LAB_DIFFERENTIAL_SEED` picks another seed; the seed is printed.
@Suite(.requires(JavaScriptReference.available, Comment(rawValue: JavaScriptReference.missing)))
struct JavaScriptDifferentialTests {
    @Test func everyFieldAgreesOnGeneratedPayloads() throws {
        let seed = ProcessInfo.processInfo.environment["LAB_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_124
        var generator = PayloadGenerator(seed: seed)
        let cases = (0..<200).map { _ in generator.payloadCase(users: 8) }
        let theirs = try JavaScriptReference.evaluate(cases)
        var compared = 0
        var differing: [String] = []
        for (index, payloadCase) in cases.enumerated() {
            let keys = payloadCase.features.members ?? []
            for (userIndex, user) in payloadCase.users.enumerated() {
                var evaluator = GrowthBookEvaluator(
                    context: GrowthBookContext(
                        json: .object([.init("attributes", user), .init("features", payloadCase.features)])
                    )
                )
                for (featureIndex, feature) in keys.enumerated() {
                    compared += 1
                    let ours = Self.fields(evaluator.evaluateFeature(feature.key))
                    let expected = theirs[index][userIndex][featureIndex]
                    if ours != expected, differing.count < 5 {
                        differing.append(
                            "payload \(index) user \(userIndex) feature \(feature.key):\n  ours   \(ours.jsonText)\n"
                                + "  theirs \(expected.jsonText)\n  features \(payloadCase.features.jsonText)\n"
                                + "  user \(user.jsonText)"
                        )
                    } else if ours != expected {
                        differing.append("")
                    }
                }
            }
        }
        let agreeing = compared - differing.count
        print("differential (seed \(seed)): \(agreeing) of \(compared) evaluations agree field for field")
        #expect(
            differing.isEmpty,
            "\(differing.count) of \(compared) differ; first:\n\(differing.prefix(5).joined(separator: "\n"))"
        )
    }

    /// The fields both are compared on, as the script prints them.
    static func fields(_ result: FeatureResult) -> JSONValue {
        let experiment: JSONValue =
            result.experimentResult.map { e in
                .object([
                    .init("key", .string(e.key)), .init("variationId", .number(Double(e.variationId))),
                    .init("inExperiment", .bool(e.inExperiment)), .init("hashUsed", .bool(e.hashUsed)),
                    .init("hashAttribute", .string(e.hashAttribute)), .init("hashValue", e.attributeValue),
                    .init("bucket", e.bucket.map { .number($0) } ?? .null),
                    .init("stickyBucketUsed", .bool(e.stickyBucketUsed)),
                    .init("passthrough", e.passthrough.map { .bool($0) } ?? .null),
                ])
            } ?? .null
        return .object([
            .init("value", result.value), .init("source", .string(result.source.rawValue)),
            .init("ruleId", .string(result.ruleId)), .init("experiment", experiment),
        ])
    }
}

/// GrowthBook's JavaScript SDK and `node`, where they are.
enum JavaScriptReference {
    static let sdk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/reference/growthbook-js/growthbook-js.cjs").path
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Differential/evaluate.cjs").path
    static let node: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var available: Bool { node != nil && FileManager.default.fileExists(atPath: sdk) }
    static let missing =
        "the JavaScript reference needs node on PATH and ../shared/reference/growthbook-js/growthbook-js.cjs"

    /// Per case, per user, per feature: the script's fields.
    static func evaluate(_ cases: [PayloadGenerator.Case]) throws -> [[[JSONValue]]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lab-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cases.json")
        let output = folder.appendingPathComponent("results.json")
        let document = JSONValue.array(
            cases.map { .object([.init("features", $0.features), .init("attributes", .array($0.users))]) }
        )
        try Data(document.jsonText.utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node!)
        process.arguments = [script, input.path, sdk]
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ReferenceFailed(status: process.terminationStatus) }
        let parsed = try JSONValue.parse(String(decoding: try Data(contentsOf: output), as: UTF8.self))
        return (parsed.elements ?? []).map { ($0.elements ?? []).map { $0.elements ?? [] } }
    }

    struct ReferenceFailed: Error {
        var status: Int32
    }
}

/// Payloads and users from a seed, inside what both SDKs read alike.
struct PayloadGenerator {
    struct Case {
        var features: JSONValue
        var users: [JSONValue]
    }

    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64: the same numbers for the same seed on every machine.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    private mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// A number with few decimals, as payloads write them.
    private mutating func fraction() -> Double { Double(below(101)) / 100 }

    private static let countries = ["NZ", "US", "FR", "JP", "DE"]
    private static let plans = ["free", "pro", "team"]
    private static let tags = ["beta", "staff", "qa", "new"]
    private static let versions = ["1.0.0", "1.2.3", "1.10.0", "2.0.0-beta.1", "2.0.0", "0.9"]

    mutating func payloadCase(users: Int) -> Case {
        let features = (0..<(1 + below(5))).map { index in JSONValue.Member("f\(index)", feature()) }
        return Case(features: .object(features), users: (0..<users).map { _ in user() })
    }

    private mutating func user() -> JSONValue {
        var members: [JSONValue.Member] = [.init("id", .string("u\(below(10_000))"))]
        if chance(0.8) { members.append(.init("country", .string(pick(Self.countries)))) }
        if chance(0.8) { members.append(.init("plan", .string(pick(Self.plans)))) }
        if chance(0.8) { members.append(.init("age", .number(Double(10 + below(60))))) }
        // Every user has a version: versions of missing values are a known difference.
        members.append(.init("version", .string(pick(Self.versions))))
        if chance(0.7) {
            members.append(.init("tags", .array((0..<below(3)).map { _ in .string(pick(Self.tags)) })))
        }
        if chance(0.5) { members.append(.init("company", .string("c\(below(20))"))) }
        members.append(.init("beta", .bool(chance(0.5))))
        return .object(members)
    }

    private mutating func value() -> JSONValue {
        switch below(4) {
        case 0: return .string(pick(["red", "blue", "green"]))
        case 1: return .number(Double(below(100)))
        case 2: return .bool(chance(0.5))
        default: return .object([.init("size", .number(Double(below(5))))])
        }
    }

    private mutating func feature() -> JSONValue {
        var rules: [JSONValue] = []
        for _ in 0..<below(4) { rules.append(chance(0.4) ? forceRule() : experimentRule()) }
        return .object([.init("defaultValue", value()), .init("rules", .array(rules))])
    }

    private mutating func forceRule() -> JSONValue {
        var members: [JSONValue.Member] = [.init("force", value())]
        if chance(0.7) { members.append(.init("condition", condition(depth: 0))) }
        if chance(0.3) { members.append(.init("coverage", .number(fraction()))) }
        return .object(members)
    }

    private mutating func experimentRule() -> JSONValue {
        let count = 2 + below(3)
        var members: [JSONValue.Member] = [
            .init("key", .string("exp-\(below(50))")),
            .init("variations", .array((0..<count).map { _ in value() })),
        ]
        if chance(0.6) {
            // Weights that add up to 1, as GrowthBook writes them.
            var raw = (0..<count).map { _ in 1 + below(9) }
            let total = raw.reduce(0, +)
            raw = raw.map { $0 * 100 / total }
            raw[0] += 100 - raw.reduce(0, +)
            members.append(.init("weights", .array(raw.map { .number(Double($0) / 100) })))
        }
        if chance(0.4) { members.append(.init("coverage", .number(fraction()))) }
        if chance(0.5) { members.append(.init("condition", condition(depth: 0))) }
        if chance(0.3) { members.append(.init("hashAttribute", .string(pick(["id", "company"])))) }
        if chance(0.4) { members.append(.init("hashVersion", .number(Double(1 + below(2))))) }
        if chance(0.3) { members.append(.init("seed", .string("s\(below(100))"))) }
        if chance(0.2) {
            let start = Double(below(50)) / 100
            members.append(.init("namespace", .array([.string("ns"), .number(start), .number(start + 0.5)])))
        }
        return .object(members)
    }

    private mutating func condition(depth: Int) -> JSONValue {
        if depth < 2, chance(0.25) {
            let parts = (0..<(1 + below(2))).map { _ in condition(depth: depth + 1) }
            return .object([.init(pick(["$or", "$and"]), .array(parts))])
        }
        if depth < 2, chance(0.1) { return .object([.init("$not", condition(depth: depth + 1))]) }
        return .object([attributeTest()])
    }

    private mutating func attributeTest() -> JSONValue.Member {
        switch below(9) {
        case 0:
            return .init(
                "country",
                chance(0.5) ? .string(pick(Self.countries)) : op(pick(["$eq", "$ne"]), .string(pick(Self.countries)))
            )
        case 1:
            let list = JSONValue.array((0..<(1 + below(3))).map { _ in .string(pick(Self.countries)) })
            return .init("country", op(pick(["$in", "$nin"]), list))
        case 2: return .init("age", op(pick(["$gt", "$gte", "$lt", "$lte"]), .number(Double(10 + below(60)))))
        case 3: return .init(pick(["plan", "company"]), op("$exists", .bool(chance(0.5))))
        case 4:
            return .init(
                "version",
                op(pick(["$vgt", "$vgte", "$vlt", "$vlte", "$veq", "$vne"]), .string(pick(Self.versions)))
            )
        case 5:
            return .init(
                "plan",
                op(pick(["$regex", "$regexi"]), .string(pick(["^p", "e$", "RO", "ea", "^(free|team)$"])))
            )
        case 6: return .init("tags", op("$size", .number(Double(below(3)))))
        case 7:
            return chance(0.5)
                ? .init("tags", op("$all", .array([.string(pick(Self.tags))])))
                : .init("tags", op("$elemMatch", op("$eq", .string(pick(Self.tags)))))
        default: return .init("beta", chance(0.5) ? .bool(chance(0.5)) : op("$ne", .bool(chance(0.5))))
        }
    }

    private func op(_ name: String, _ operand: JSONValue) -> JSONValue {
        .object([.init(name, operand)])
    }
}
