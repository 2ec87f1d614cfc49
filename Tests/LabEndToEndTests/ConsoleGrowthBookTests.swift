import Foundation
import LabTestSupport
import Testing

/// `lab console --growthbook URL` against a server whose payload changes.
@Suite(.requires(Tmux.isAvailable, "tmux is not installed"))
struct ConsoleGrowthBookTests {
    /// Everyone in variation `winner` (weights all on it; no meta, so no sticky buckets).
    static func payload(winner: Int) -> Data {
        let weights = winner == 0 ? "[1, 0]" : "[0, 1]"
        return Data(
            #"{"features": {"color": {"defaultValue": "red", "rules": [{"key": "color-test", "variations": ["red", "blue"], "weights": \#(weights)}]}}}"#
                .utf8
        )
    }

    /// `lab console` with these arguments, opened on its Experiments screen.
    static func experimentsScreen(_ lab: LabHarness, _ arguments: String) throws -> Tmux {
        let tmux = try Tmux(
            command: "'\(LabHarness.binary)' console \(arguments) --state '\(lab.state)'",
            environment: lab.environment
        )
        #expect(tmux.waitFor("Experiments"))
        try tmux.send("Enter")
        return tmux
    }

    /// Whether the `color-test` row shows `variant` within 30 seconds: wide
    /// for a loaded machine, and still half the 60 s poll of the streamed
    /// test, so there only the stream can bring it.
    static func showsColorTest(_ tmux: Tmux, _ variant: String) -> Bool {
        tmux.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix(" color-test ") && $0.contains(" \(variant) ") }
        }
    }

    @Test func aChangedPayloadShowsUpWithoutAKeyPress() throws {
        let winner = Box(0)
        let server = try TestHTTPServer.growthBook(streaming: false) { Self.payload(winner: winner.value) }
        defer { server.stop() }
        let lab = try LabHarness()
        let tmux = try Self.experimentsScreen(lab, "--growthbook '\(server.url.absoluteString)' --refresh-interval 1")
        defer { tmux.kill() }
        #expect(Self.showsColorTest(tmux, "0"), "\(tmux.capture())")
        winner.value = 1
        // No key is pressed: the refresh every second brings it.
        #expect(Self.showsColorTest(tmux, "1"), "\(tmux.capture())")
        // Another command serves the payload the console stored, without fetching.
        let result = try lab.runRaw([
            "assignments", "--json", "--growthbook", server.url.absoluteString, "--state", lab.state,
        ])
        let rows = try LabHarness.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
        #expect(rows.first { $0["key"] as? String == "color" }?["variant"] as? String == "1")
        // Settings says when the payload is fetched next.
        try tmux.send("Escape", "End", "Up", "Enter")
        #expect(tmux.waitFor("then every 1 second"), "\(tmux.capture())")
        #expect(tmux.capture().contains("Next fetch"))
    }
}

extension ConsoleGrowthBookTests {
    @Test func aStreamedPayloadShowsUpBeforeTheNextPoll() throws {
        let winner = Box(0)
        let server = try TestHTTPServer.growthBook(streaming: true) { Self.payload(winner: winner.value) }
        defer { server.stop() }
        let lab = try LabHarness()
        // Polling every minute: only the stream can bring the change in time.
        let tmux = try Self.experimentsScreen(
            lab,
            "--growthbook 'http://127.0.0.1:\(server.port)' --client-key KEY --refresh-interval 60"
        )
        defer { tmux.kill() }
        #expect(Self.showsColorTest(tmux, "0"), "\(tmux.capture())")
        winner.value = 1
        #expect(Self.showsColorTest(tmux, "1"), "\(tmux.capture())")
        try tmux.send("Escape", "End", "Up", "Enter")  // Settings
        #expect(tmux.waitFor("streaming"), "\(tmux.capture())")
    }
}

extension ConsoleGrowthBookTests {
    @Test func escapeSequencesFromTheServerAreShownEscapedAndRulesExplained() throws {
        let hostile = Data(
            #"{"features": {"title": {"defaultValue": "x", "rules": [{"key": "title-test", "variations": ["\u001b[2J\u001b]0;pwned\u0007", "plain"], "weights": [1, 0]}]}}}"#
                .utf8
        )
        let server = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: hostile) }
        defer { server.stop() }
        let lab = try LabHarness()
        let tmux = try Self.experimentsScreen(lab, "--growthbook '\(server.url.absoluteString)'")
        defer { tmux.kill() }
        #expect(tmux.waitFor("title-test"), "\(tmux.capture())")
        try tmux.send("Enter")  // its variants; the pane shows the value
        #expect(tmux.waitFor("\\e[2J\\e]0;pwned\\x07"), "\(tmux.capture())")
        // The rule's explanation arrives with the fetched payload: waited for, as a loaded machine may be slow.
        #expect(tmux.waitFor("rule: title rule 1: experiment title-test", timeout: 20), "\(tmux.capture())")
    }
}

/// A value the server closure reads and the test changes.
final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int

    init(_ value: Int) { stored = value }

    var value: Int {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}
