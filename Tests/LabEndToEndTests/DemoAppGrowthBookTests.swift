import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// `lab-demo --growthbook`: an app using the framework with a GrowthBook
/// payload sees the server's changes while it runs, as the console does.
@Suite(.requires(Tmux.isAvailable, "tmux is not installed"))
struct DemoAppGrowthBookTests {
    /// Everyone in variation `winner` of the button colour test (no meta, so no sticky buckets).
    static func payload(winner: Int) -> Data {
        let weights = winner == 0 ? "[1, 0]" : "[0, 1]"
        return Data(
            #"{"features": {"subscribeButtonColor": {"defaultValue": "red", "rules": [{"key": "button-test", "variations": ["green", "purple"], "weights": \#(weights)}]}}}"#
                .utf8
        )
    }

    static func demo(_ lab: LabHarness, _ arguments: String) throws -> Tmux {
        try Tmux(command: "'\(DemoAppTests.binary)' \(arguments) --state '\(lab.state)'", environment: lab.environment)
    }

    @Test func aPolledPayloadChangeRedrawsWithinTheRefreshInterval() throws {
        let winner = Box(0)
        let server = try TestHTTPServer.growthBook(streaming: false) { Self.payload(winner: winner.value) }
        defer { server.stop() }
        let lab = try LabHarness()
        let tmux = try Self.demo(lab, "--growthbook '\(server.url.absoluteString)' --refresh-interval 1")
        defer { tmux.kill() }
        #expect(tmux.waitFor("subscribeButtonColor = green   (button-test / 0)"), "\(tmux.capture())")
        winner.value = 1
        let changed = Date()
        #expect(tmux.waitFor("subscribeButtonColor = purple   (button-test / 1)"), "\(tmux.capture())")
        // Within the refresh interval (1 s) and a redraw, with a wide margin for a busy machine.
        #expect(Date().timeIntervalSince(changed) < 5)
    }

    @Test func aStreamedPayloadChangeRedrawsWithoutWaitingForAFetch() throws {
        let winner = Box(0)
        let fetches = Box(0)
        let server = try TestHTTPServer.growthBook(
            streaming: true,
            fetched: { fetches.value += 1 },
            payload: { Self.payload(winner: winner.value) }
        )
        defer { server.stop() }
        let lab = try LabHarness()
        // Fetching once an hour: only the stream can bring the change.
        let tmux = try Self.demo(
            lab,
            "--growthbook 'http://127.0.0.1:\(server.port)' --client-key KEY --refresh-interval 3600"
        )
        defer { tmux.kill() }
        #expect(tmux.waitFor("subscribeButtonColor = green   (button-test / 0)"), "\(tmux.capture())")
        winner.value = 1
        #expect(tmux.waitFor("subscribeButtonColor = purple   (button-test / 1)"), "\(tmux.capture())")
        #expect(fetches.value == 1)
    }

    @Test func onceFetchesThePayloadBeforeItDraws() throws {
        let server = try TestHTTPServer.growthBook(streaming: false) { Self.payload(winner: 1) }
        defer { server.stop() }
        let lab = try LabHarness()
        let result = try Subprocess.run(
            DemoAppTests.binary,
            ["--once", "--growthbook", server.url.absoluteString, "--state", lab.state],
            environment: lab.environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("subscribeButtonColor = purple   (button-test / 1)"), "\(result.stdout)")
    }
}
