import Foundation
import LabDrivers
import LabTestSupport

/// Runs the built `lab` binary against a state file of the test's own.
struct LabHarness {
    /// The `lab` executable, built next to the test bundle by `swift test`.
    static let binary: String = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // The test runner may live inside an .xctest folder.
        while folder.pathComponents.count > 1 {
            let candidate = folder.appendingPathComponent("lab").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return "lab"
    }()

    /// The package root, where `share/laboratory/demo.json` lives.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The state file and whatever a test writes, removed when the test lets go of the harness.
    let scratch: TemporaryFolder
    var folder: String { scratch.path }
    var state: String { folder + "/state.sqlite" }

    init() throws {
        scratch = try TemporaryFolder("lab-e2e")
    }

    /// Environment that keeps `lab` away from the user's own state.
    var environment: [String: String] { ["XDG_STATE_HOME": folder + "/xdg", "NO_COLOR": "1"] }

    /// Runs `lab ARGUMENTS --state STATE`.
    func run(_ arguments: String...) throws -> Subprocess.Result {
        try Subprocess.run(Self.binary, arguments + ["--state", state], environment: environment)
    }

    /// Runs `lab` with exactly these arguments.
    func runRaw(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(Self.binary, arguments, environment: environment)
    }

    /// Writes a file into the test's folder and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Parses a command's JSON output.
    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let dictionary = object as? [String: Any] else { throw HarnessError("not a JSON object: \(text)") }
        return dictionary
    }

    /// `lab assignments --json` as key → variant.
    func assignments() throws -> [String: String] {
        let result = try run("assignments", "--json")
        guard result.status == 0 else { throw HarnessError("assignments failed: \(result.stderr)") }
        let rows = try Self.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
        var byKey: [String: String] = [:]
        for row in rows { byKey[row["key"] as! String] = row["variant"] as? String }
        return byKey
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
