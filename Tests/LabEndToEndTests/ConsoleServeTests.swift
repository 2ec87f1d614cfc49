import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// `lab console --serve`: one terminal for a demo, the server's address and
/// its clients on the Settings screen.
@Suite(
    .requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console end-to-end tests")
)
struct ConsoleServeTests {
    @Test func theConsoleServesAppsAndShowsWhoConnects() throws {
        let lab = try LabHarness()
        let tmux = try Tmux(
            command: "'\(LabHarness.binary)' console --serve --port 0 --state '\(lab.state)'",
            environment: lab.environment
        )
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        try tmux.send("End", "Up", "Enter")  // Settings
        #expect(tmux.waitFor { $0.contains("Address") && $0.contains("http://127.0.0.1:") }, "\(tmux.capture())")
        let screen = tmux.capture()
        let start = try #require(screen.range(of: "http://127.0.0.1:"))
        let port = screen[start.upperBound...].prefix { $0.isNumber }
        // Raw HTTP rather than URLSession: one run in CI saw URLSession take
        // over a minute to return, by which time the request had left the
        // console's one-minute window.
        let connection = try LoopbackConnection(port: try #require(Int(port)))
        defer { connection.close() }
        connection.send("GET /api/features/any-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = connection.readAvailable(timeout: 30)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(answer.contains("subscribeButtonColor"))
        #expect(tmux.waitFor("1 request in the last minute", timeout: 20), "\(tmux.capture())")
    }

    /// A port another server holds: the console says so and does not open
    /// as if apps could reach it.
    @Test func aBusyPortIsRefusedBeforeTheConsoleOpens() throws {
        let lab = try LabHarness()
        let first = try Tmux(
            command: "'\(LabHarness.binary)' console --serve --port 0 --state '\(lab.state)'",
            environment: lab.environment
        )
        defer { first.kill() }
        #expect(first.waitFor("Experiments"))
        try first.send("End", "Up", "Enter")  // Settings
        #expect(first.waitFor { $0.contains("http://127.0.0.1:") }, "\(first.capture())")
        let screen = first.capture()
        let start = try #require(screen.range(of: "http://127.0.0.1:"))
        let port = String(screen[start.upperBound...].prefix { $0.isNumber })
        let second = try Tmux(
            command:
                "'\(LabHarness.binary)' console --serve --port \(port) --state '\(lab.state)'; echo \"exit $?\"; sleep 30",
            environment: lab.environment
        )
        defer { second.kill() }
        #expect(second.waitFor("exit 69", timeout: 20), "\(second.capture())")
        #expect(second.capture().contains("cannot serve on 127.0.0.1:\(port): address already in use"))
        #expect(!second.capture().contains("CATEGORY"))
    }
}
