import Foundation
import LabDrivers
import LabTestSupport

/// A private tmux server (its own socket) running one session, driven with
/// send-keys and read with capture-pane. Always killed by the test's defer.
struct Tmux {
    /// tmux on PATH, if there is one.
    static let path = ExecutableSearch.find("tmux")

    static var isAvailable: Bool { path != nil }

    let socket = "lab-test-\(UUID().uuidString.prefix(8))"
    let session = "lab"

    /// Starts a detached session of the given size running `command` under /bin/sh.
    init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        let exports = environment.map { "export \($0.key)='\($0.value)'; " }.joined()
        let result = try run([
            "new-session", "-d", "-s", session, "-x", String(columns), "-y", String(rows),
            "/bin/sh", "-c", exports + command,
        ])
        guard result.status == 0 else { throw HarnessError("tmux new-session failed: \(result.stderr)") }
        _ = try run(["set-option", "-t", session, "remain-on-exit", "on"])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> Subprocess.Result {
        // Under CI=true a suite runs without tmux, and fails here, saying why.
        guard let path = Self.path else { throw Prerequisite.Missing(program: "tmux") }
        return try Subprocess.run(path, ["-L", socket] + arguments, environment: ["TERM": "xterm-256color"])
    }

    /// The pane's text.
    func capture() -> String {
        (try? run(["capture-pane", "-p", "-t", session]).stdout) ?? ""
    }

    /// Sends tmux key names (`Enter`, `C-c`, `j`) or literal text.
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", session] + keys)
    }

    /// Whether the pane is in the alternate screen (a full-screen program's),
    /// as tmux tracks `smcup` and `rmcup`.
    var isOnAlternateScreen: Bool {
        (try? run(["display-message", "-p", "-t", session, "#{alternate_on}"]).stdout)?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", session, "-x", String(columns), "-y", String(rows)])
    }

    /// Polls the pane until `predicate` holds or `timeout` seconds pass.
    @discardableResult
    func waitFor(timeout: TimeInterval = 5, _ predicate: (String) -> Bool) -> Bool {
        Poll.until(seconds: timeout, every: 0.05) { predicate(capture()) ? true : nil } ?? false
    }

    /// Polls until the pane shows `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 5) -> Bool {
        waitFor(timeout: timeout) { $0.contains(text) }
    }

    func kill() {
        _ = try? run(["kill-server"])
    }
}

extension LabHarness {
    /// `lab console ARGUMENTS` on the test's state file, in tmux at this size.
    func console(_ arguments: String = "", columns: Int = 100, rows: Int = 30) throws -> Tmux {
        try Tmux(
            command: "'\(LabHarness.binary)' console \(arguments) --state '\(state)'",
            columns: columns,
            rows: rows,
            environment: environment
        )
    }
}
