import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// `lab serve`'s remote evaluation read by GrowthBook's own JavaScript SDK
/// configured with `remoteEval: true` (`../shared/reference/growthbook-js`,
/// run with `node`): the SDK posts its user, the server evaluates the
/// upstream rules for it, a forced variant reaches it on the next fetch, and
/// its tracking callback fires from the answer.
@Suite(.requires(JavaScriptSDK.available, JavaScriptSDK.missing))
struct RemoteEvaluationInteropTests {
    @Test func aRemoteEvalClientGetsItsOwnValuesAndAForceWithItsTracking() throws {
        let lab = try LabHarness()
        let payload = try lab.write("payload.json", InteroperabilityTests.upstreamPayload)
        let serving = try LabServe(lab, ["--growthbook", payload])
        defer { serving.stop() }
        let config: [String: Any] = [
            "base": serving.base, "clientKey": "any-key",
            "attributes": ["id": "someone-else", "country": "NL", "plan": "free"],
            "force": [
                LabHarness.binary, "force", "headline-test", "Warm", "--growthbook", payload, "--state", lab.state,
            ],
            "feature": "headline", "expected": "Welcome",
        ]
        let result = try JavaScriptSDK.run(
            "remote_eval_client.cjs",
            String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self),
            environment: lab.environment
        )
        // Before the force, the server evaluated GrowthBook's targeting for this user.
        #expect((result["initial"] as? [String: Any])?["headline"] as? String == "Hoi", "\(result)")
        let seconds = try #require(result["seconds"] as? Double, "the forced value never arrived: \(result)")
        #expect(seconds < 5)
        #expect(result["source"] as? String == "force")  // an evaluated answer: a force rule carrying tracks
        #expect(result["targeting"] as? Bool == false, "an answer held a condition")
        let tracked = result["tracked"] as? [[String: Any]] ?? []
        #expect(
            tracked.contains { $0["experiment"] as? String == "headline-test" && $0["key"] as? String == "warm" },
            "\(tracked)"
        )
        #expect(serving.log.contains("POST /api/eval/any-key"), "\(serving.log)")
    }
}

/// GrowthBook's JavaScript SDK and `node` (``GrowthBookJavaScript``), with the scripts of `Interop/`.
enum JavaScriptSDK {
    static let scripts = LabHarness.packageRoot + "/Tests/LabEndToEndTests/Interop/"
    static var available: Bool { GrowthBookJavaScript.available }
    static let missing = Comment(rawValue: GrowthBookJavaScript.missing)

    /// Runs a script with the SDK and parses the JSON document it prints last.
    static func run(_ script: String, _ config: String, environment: [String: String]) throws -> [String: Any] {
        let node = try Prerequisite.require("node")
        let result = try Subprocess.run(
            node,
            [scripts + script, GrowthBookJavaScript.sdk, config],
            environment: environment
        )
        guard result.status == 0 else { throw HarnessError("\(script) failed (\(result.status)): \(result.stderr)") }
        return try LabHarness.json(result.stdout.split(separator: "\n").last.map(String.init) ?? "")
    }
}
