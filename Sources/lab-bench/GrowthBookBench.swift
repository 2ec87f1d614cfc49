import ArgumentParser
import CAllocationCounter
import Foundation
import GrowthBook

/// `lab-bench growthbook`: the GrowthBook library against GrowthBook's own
/// Python SDK, on the same generated 1,000-feature payload and the same users.
///
/// Prints decode + index time, both throughputs (feature evaluations per
/// second) and their ratio, and the heap allocations per evaluation, for
/// features without an experiment rule and for those with one. Goals: at
/// least 50× the Python SDK, decode + index under 5 ms, no allocation for a
/// feature without an experiment rule.
///
/// The Python SDK (`growthbook` from PyPI) is installed on first use in a
/// virtual environment under `.build/python`, as CI does; without Python or
/// the network the comparison is skipped with a message.
/// Run it in release: `swift run -c release lab-bench growthbook`.
struct GrowthBookBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growthbook",
        abstract: "Benchmark the GrowthBook evaluator against GrowthBook's Python SDK."
    )

    @Option(help: "Features in the generated payload.") var features = 1_000
    @Option(help: "Users, each evaluated on every feature.") var users = 20
    @Option(help: "Times the Swift side evaluates the same users (it is too fast to time once).") var repeats = 50
    @Option(help: "Times the payload is decoded; the median is printed.") var decodes = 21

    func validate() throws {
        guard features >= 1, users >= 1, repeats >= 1, decodes >= 1 else {
            throw ValidationError("--features, --users, --repeats and --decodes must be at least 1")
        }
    }

    func run() throws {
        let data = PayloadGenerator.make(features: features)
        let attributes = (0..<users).map { index -> JSONValue in
            .object([
                .init("id", .string("user-\(index)")), .init("country", .string("US")), .init("age", .number(30)),
                .init("plan", .string("pro")), .init("version", .string("1.3.0")),
            ])
        }

        // Decode + index: bytes to features ready to evaluate (the median of `decodes` runs).
        // The payload before is freed after the clock stops, as an app keeps its last good one meanwhile.
        var decodeTimes: [Double] = []
        var decoded: GrowthBookPayload?
        var decodeAllocations = 0
        for _ in 0..<decodes {
            let before = allocation_count()
            let start = DispatchTime.now().uptimeNanoseconds
            let next = try GrowthBookPayload(data, decrypt: nil)
            decodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            decodeAllocations = Int(allocation_count() - before)
            decoded = next
        }
        guard let payload = decoded else { return }
        let keys = payload.features.map(\.key)
        let experimentFeatures = Set(
            keys.filter { key in payload.decodedFeatures[key]?.rules.contains { $0.experiment != nil } ?? false }
        )
        print("GrowthBook payload: \(keys.count) features, \(experimentFeatures.count) of them with an experiment rule")
        print(
            String(
                format: "  decode + index (median of %d):      %8.2f ms (goal 5 ms), %d allocations, payload %d bytes",
                decodeTimes.count,
                median(decodeTimes),
                decodeAllocations,
                data.count
            )
        )

        // Throughput: a fresh evaluator per user, every feature, timed per user, by the wall
        // clock and in CPU time. Both sides report the median user, so a moment of a busy
        // machine does not decide the ratio; CPU time moves far less with load.
        var userSeconds: [Double] = []
        var userCPUSeconds: [Double] = []
        for _ in 0..<repeats {
            for user in attributes {
                let start = DispatchTime.now().uptimeNanoseconds
                let cpuStart = Self.threadCPUSeconds()
                var evaluator = GrowthBookEvaluator(context: payload.context(attributes: user))
                for key in keys { _ = evaluator.evaluateFeature(key) }
                userCPUSeconds.append(Self.threadCPUSeconds() - cpuStart)
                userSeconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        let ours = Double(keys.count) / median(userSeconds)
        let oursCPU = median(userCPUSeconds) / Double(keys.count)
        print(
            String(
                format: "  Swift:  %12.0f feature evaluations per second (median of %d users), %.0f ns of CPU each",
                ours,
                userSeconds.count,
                oursCPU * 1e9
            )
        )

        // The front door: a client, a user per request, typed reads through it.
        let client = GrowthBookClient(payload: payload)
        var doorSeconds: [Double] = []
        for _ in 0..<repeats {
            for user in attributes {
                let start = DispatchTime.now().uptimeNanoseconds
                let scoped = client.user(GrowthBookAttributes(user))
                for key in keys { _ = scoped.evaluate(key) }
                doorSeconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        let door = Double(keys.count) / median(doorSeconds)
        print(
            String(
                format: "  front door: %12.0f per second through GrowthBookClient, %+.1f%% against the evaluator"
                    + " (goal within 10%%)",
                door,
                (door / ours - 1) * 100
            )
        )

        // Allocations, counted around each evaluation.
        var plain = (allocations: 0, evaluations: 0)
        var experimental = (allocations: 0, evaluations: 0)
        for user in attributes {
            var evaluator = GrowthBookEvaluator(context: payload.context(attributes: user))
            for key in keys {
                let before = allocation_count()
                _ = evaluator.evaluateFeature(key)
                let count = Int(allocation_count() - before)
                if experimentFeatures.contains(key) {
                    experimental.allocations += count
                    experimental.evaluations += 1
                } else {
                    plain.allocations += count
                    plain.evaluations += 1
                }
            }
        }
        print(
            String(
                format: "  allocations per evaluation: %.2f without an experiment rule (goal 0), %.2f with one",
                Double(plain.allocations) / Double(max(plain.evaluations, 1)),
                Double(experimental.allocations) / Double(max(experimental.evaluations, 1))
            )
        )

        guard let python = try PythonSDK.locate() else { return }
        let scratch = try ScratchFolder("growthbook")
        defer { scratch.remove() }
        let folder = scratch.path
        try data.write(to: URL(fileURLWithPath: folder + "/payload.json"))
        try Data(JSONValue.array(attributes).jsonText.utf8).write(to: URL(fileURLWithPath: folder + "/users.json"))
        guard
            let output = ChildProcess.output(
                of: python.interpreter,
                [python.script, folder + "/payload.json", folder + "/users.json"]
            ),
            let result = try? JSONValue.parse(output),
            let times = result["perUser"]?.elements?.compactMap(\.numberValue), case let userTime = median(times),
            userTime > 0,
            let cpuTimes = result["cpuPerUser"]?.elements?.compactMap(\.numberValue)
        else {
            return print("  Python: the SDK's run failed; no comparison")
        }
        let theirs = Double(keys.count) / userTime
        let theirsCPU = median(cpuTimes) / Double(keys.count)
        print(
            String(
                format: "  Python: %12.0f feature evaluations per second (median of %d users, growthbook %@),"
                    + " %.0f ns of CPU each",
                theirs,
                times.count,
                result["version"]?.stringValue ?? "?",
                theirsCPU * 1e9
            )
        )
        print(
            String(
                format: "  ratio:  %12.1f× by the wall clock, %.1f× in CPU time (goal 50×)",
                ours / theirs,
                theirsCPU / oursCPU
            )
        )
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        if folders.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/go") }) {
            print("  Go: not measured: this benchmark does not build GrowthBook's Go SDK yet")
        } else {
            print("  Go: not measured: no Go toolchain on this machine (`go` is not on PATH)")
        }
    }

    /// CPU time this thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The middle value (the mean of the middle two for an even count); NaN for none.
    private func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// GrowthBook's Python SDK in a virtual environment under `.build/python`.
enum PythonSDK {
    /// The package's root, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The interpreter with the SDK and the benchmark's script, installing the
    /// SDK first if needed; `nil`, with a message, when that cannot be done.
    static func locate() throws -> (interpreter: String, script: String)? {
        let environment = packageRoot + "/.build/python"
        let interpreter = environment + "/bin/python"
        let script = packageRoot + "/Sources/lab-bench/growthbook_python_bench.py"
        if ChildProcess.output(of: interpreter, ["-c", "import growthbook; print('ok')"])?.hasPrefix("ok") != true {
            print("  Python: installing the growthbook SDK in \(environment)")
            _ = ChildProcess.output(of: "/usr/bin/python3", ["-m", "venv", environment])
            _ = ChildProcess.output(of: environment + "/bin/pip", ["install", "-q", "growthbook"])
        }
        guard ChildProcess.output(of: interpreter, ["-c", "import growthbook; print('ok')"])?.hasPrefix("ok") == true
        else {
            print("  Python: the growthbook SDK is not installed and could not be (no python3 venv or no network)")
            return nil
        }
        return (interpreter, script)
    }
}
