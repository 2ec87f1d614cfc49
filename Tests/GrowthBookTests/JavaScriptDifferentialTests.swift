import Foundation
import LabDrivers
import LabTestSupport
import Testing

@testable import GrowthBook

/// The library against GrowthBook's own JavaScript SDK
/// (`../shared/reference/growthbook-js`, run with `node`) on payloads and
/// users generated from a seed: every field of every evaluation must agree.
///
/// The generator covers what issue 25 found the two reading differently
/// (empty seeds, paths through arrays, versions of missing values, `$nor`
/// over nothing, regexes on real user agents, fallback attributes,
/// integer-like member names, falsy `$elemMatch` elements, `Number()` of
/// strings, hash versions no SDK knows, namespaces past 1) and the rest of
/// GrowthBook's evaluation: every operator, saved groups, filters,
/// prerequisites, contextual bandits and sticky buckets over two sessions.
/// Cases without sticky buckets are evaluated through the front door
/// (``GrowthBookClient``) as well, which decides turn-free features its own
/// way. `LAB_DIFFERENTIAL_SEED` picks another seed; the seed is printed.
@Suite(.requires(JavaScriptReference.available, Comment(rawValue: JavaScriptReference.missing)))
struct JavaScriptDifferentialTests {
    @Test func everyFieldAgreesOnGeneratedPayloads() throws {
        let seed = JavaScriptReference.seed
        var generator = PayloadGenerator(seed: seed)
        let cases = (0..<300).map { _ in generator.payloadCase(users: 8) }
        let theirs = try JavaScriptReference.evaluate(cases)
        var compared = 0
        var throughFrontDoor = 0
        var differing: [String] = []
        for (index, payloadCase) in cases.enumerated() {
            // The front door too, where a case has no sticky buckets: it decides some features its own way.
            let client = try payloadCase.sticky ? nil : GrowthBookClient(payload: Self.payload(of: payloadCase))
            for (userIndex, user) in payloadCase.users.enumerated() {
                var ours = Self.evaluate(payloadCase, user: user)
                if let client {
                    let door = client.user(GrowthBookAttributes(user))
                    let keys = payloadCase.sessions[0]["features"]?.members ?? []
                    ours.append(keys.map { Self.fields(door.evaluate($0.key)) })
                }
                for (run, results) in ours.enumerated() {
                    // The front door's run (after the sessions) answers for the first session.
                    let session = run < payloadCase.sessions.count ? run : 0
                    let keys = payloadCase.sessions[session]["features"]?.members ?? []
                    for (featureIndex, feature) in keys.enumerated() {
                        compared += 1
                        if run != session { throughFrontDoor += 1 }
                        let expected = theirs[index][userIndex][session][featureIndex]
                        guard results[featureIndex] != expected else { continue }
                        guard differing.count < 5 else {
                            differing.append("")
                            continue
                        }
                        differing.append(
                            "payload \(index) user \(userIndex) session \(session)"
                                + (run == session ? "" : " through the front door") + " feature \(feature.key):\n"
                                + "  ours   \(results[featureIndex].jsonText)\n  theirs \(expected.jsonText)\n"
                                + "  payload \(payloadCase.sessions[session].jsonText)\n  user \(user.jsonText)"
                        )
                    }
                }
            }
        }
        let agreeing = compared - differing.count
        let all = theirs.joined().joined().joined()
        var sources: [String: Int] = [:]
        for result in all { sources[result["source"]?.stringValue ?? "?", default: 0] += 1 }
        let sticky = all.filter { $0["experiment"]?["stickyBucketUsed"] == .bool(true) }.count
        let leaves = all.filter { ($0["experiment"]?["leafId"]).map { $0 != .null } ?? false }.count
        print(
            "differential (seed \(seed)): \(agreeing) of \(compared) evaluations agree field for field "
                + "(\(throughFrontDoor) of them through the front door); JavaScript's "
                + "sources \(sources.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")), "
                + "\(sticky) from sticky buckets, \(leaves) from bandit leaves"
        )
        #expect(
            differing.isEmpty,
            "\(differing.count) of \(compared) differ; first:\n\(differing.prefix(5).joined(separator: "\n"))"
        )
    }

    /// The case's first session as a payload an app's client loads.
    static func payload(of payloadCase: PayloadGenerator.Case) throws -> GrowthBookPayload {
        try GrowthBookPayload(Data(payloadCase.sessions[0].jsonText.utf8), decrypt: nil)
    }

    /// Each session's results for one user, as the script evaluates them:
    /// a sticky case keeps the user's documents from one session to the next.
    static func evaluate(_ payloadCase: PayloadGenerator.Case, user: JSONValue) -> [[JSONValue]] {
        let service = payloadCase.sticky ? InMemoryStickyBucketService() : nil
        return payloadCase.sessions.map { payload in
            var members = payload.members ?? []
            members.append(.init("attributes", user))
            var evaluator = GrowthBookEvaluator(context: GrowthBookContext(json: .object(members)))
            if let service { evaluator.useStickyBuckets(service) }
            return (payload["features"]?.members ?? []).map { fields(evaluator.evaluateFeature($0.key)) }
        }
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
                    .init("name", e.name.map { .string($0) } ?? .null),
                    .init("leafId", e.extras.first { $0.key == "leafId" }?.value ?? .null),
                    .init("variationWeights", e.extras.first { $0.key == "variationWeights" }?.value ?? .null),
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
    static let sdk = GrowthBookJavaScript.sdk
    /// The scripts the differential tests run (`Differential/`).
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Differential")
    static var available: Bool { GrowthBookJavaScript.available }
    static let missing = GrowthBookJavaScript.missing
    /// The seed of generated inputs: `LAB_DIFFERENTIAL_SEED`, or a fixed one.
    static let seed = ProcessInfo.processInfo.environment["LAB_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_124

    /// Per case, per user, per session, per feature: the script's fields.
    static func evaluate(_ cases: [PayloadGenerator.Case]) throws -> [[[[JSONValue]]]] {
        let document = JSONValue.array(
            cases.map {
                .object([
                    .init("sessions", .array($0.sessions)), .init("attributes", .array($0.users)),
                    .init("sticky", .bool($0.sticky)),
                ])
            }
        )
        let parsed = try run("evaluate.cjs", on: document)
        return (parsed.elements ?? []).map { ($0.elements ?? []).map { ($0.elements ?? []).map { $0.elements ?? [] } } }
    }

    /// Runs a script of `Differential/` with `node` on `input` (written to a
    /// file, whose path is its first argument; the SDK's is its second) and
    /// reads the JSON document it prints. Started by `Subprocess`, as every
    /// child of the tests is: it holds none of their descriptors.
    static func run(_ script: String, on input: JSONValue) throws -> JSONValue {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lab-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("input.json")
        try Data(input.jsonText.utf8).write(to: inputFile)
        let result = try Subprocess.run(
            try Prerequisite.require("node"),
            [scripts.appendingPathComponent(script).path, inputFile.path, sdk]
        )
        guard result.status == 0 else { throw ReferenceFailed(status: result.status, stderr: result.stderr) }
        return try JSONValue.parse(result.stdout)
    }

    /// The script ended with `status`, saying why on `stderr`.
    struct ReferenceFailed: Error {
        var status: Int32
        var stderr: String
    }
}
