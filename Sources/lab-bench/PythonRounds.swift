import Foundation
import GrowthBook

/// GrowthBook's Python SDK kept running beside the benchmark, evaluating the
/// same payload for the same users one round at a time, when asked, so its
/// rounds interleave with the Swift side's.
struct PythonRounds {
    let child: LineChild
    /// The SDK's version, as installed.
    let version: String
    private let scratch: ScratchFolder

    /// Starts the SDK on `data`; `nil`, with a message, when Python or the SDK is not there.
    static func start(data: Data) throws -> PythonRounds? {
        guard let python = try PythonSDK.locate() else { return nil }
        let scratch = try ScratchFolder("growthbook")
        let folder = scratch.path
        try data.write(to: URL(fileURLWithPath: folder + "/payload.json"))
        // A Python that ends early must not end the benchmark with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        guard
            let child = LineChild(
                python.interpreter,
                [python.script, folder + "/payload.json"]
            )
        else {
            scratch.remove()
            print("  Python: \(python.interpreter) could not be started; no comparison")
            return nil
        }
        guard let line = child.readLine(), let version = (try? JSONValue.parse(line))?["version"]?.stringValue else {
            child.finish()
            scratch.remove()
            print("  Python: the SDK did not start; no comparison")
            return nil
        }
        return PythonRounds(child: child, version: version, scratch: scratch)
    }

    /// One round: every user on every feature; `nil` when the SDK failed.
    func round(_ users: [JSONValue]) -> Samples? {
        guard child.send(JSONValue.array(users).jsonText), let line = child.readLine(),
            let result = try? JSONValue.parse(line),
            let wall = result["perUser"]?.elements?.compactMap(\.numberValue),
            let cpu = result["cpuPerUser"]?.elements?.compactMap(\.numberValue), wall.count == cpu.count
        else { return nil }
        return Samples(wall: wall, cpu: cpu)
    }

    /// Ends the SDK's process and removes its files.
    func finish() {
        child.finish()
        scratch.remove()
    }
}
