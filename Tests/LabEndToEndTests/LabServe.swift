import Foundation
import LabTestSupport

/// `lab serve --port 0` on the test's state file, until `stop()`.
struct LabServe {
    let running: Subprocess.Running
    let base: String

    init(_ lab: LabHarness, _ arguments: [String] = []) throws {
        running = try Subprocess.start(
            LabHarness.binary,
            ["serve", "--port", "0", "--verbose", "--state", lab.state] + arguments,
            environment: lab.environment
        )
        let log = running.stdoutPath
        let found = Poll.until(seconds: 20) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                .first { $0.hasPrefix("Serving ") }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        guard let found else { throw HarnessError("lab serve did not start") }
        base = found
    }

    /// What `lab serve --verbose` printed so far.
    var log: String { (try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? "" }

    func stop() {
        kill(running.pid, SIGTERM)
        _ = running.wait()
    }
}
