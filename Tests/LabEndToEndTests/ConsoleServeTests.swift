import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `lab console --serve`: one terminal for a demo, the server's address and
/// its clients on the Settings screen.
@Suite(
    .enabled(if: Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console end-to-end tests")
)
struct ConsoleServeTests {
    @Test func theConsoleServesAppsAndShowsWhoConnects() async throws {
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
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/api/features/any-key"))
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("subscribeButtonColor"))
        #expect(tmux.waitFor("1 request in the last minute"), "\(tmux.capture())")
    }
}
