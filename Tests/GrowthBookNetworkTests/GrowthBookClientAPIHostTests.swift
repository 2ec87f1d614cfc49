import Foundation
import GrowthBook
import GrowthBookNetwork
import LabDrivers
import LabTestSupport
import Synchronization
import Testing

/// A client built from an API host and a client key: its payload arrives
/// from the host, a change reaches it by polling, and a refused payload
/// leaves the last good one.
@Suite struct GrowthBookClientAPIHostTests {
    @Test func thePayloadArrivesAndAChangeReachesLaterUsers() async throws {
        let served = Mutex(#"{"features": {"title": {"defaultValue": "first"}}}"#)
        let fetches = Mutex(0)
        let host = try TestHTTPServer.growthBook(
            streaming: false,
            fetched: { fetches.withLock { $0 += 1 } },
            payload: { Data(served.withLock { $0 }.utf8) }
        )
        defer { host.stop() }
        let client = GrowthBookClient(
            apiHost: URL(string: "http://127.0.0.1:\(host.port)")!,
            clientKey: "test-key",
            refreshInterval: .milliseconds(50),
            executor: QueueExecutor()  // suites that block the shared pool must not stall the updates
        )
        #expect(await client.waitForPayload(timeout: .seconds(10)))
        #expect(client.user().value(for: "title", default: "") == "first")
        served.withLock { $0 = #"{"features": {"title": {"defaultValue": "second"}}}"# }
        #expect(await Self.eventually { client.user().value(for: "title", default: "") == "second" })
        // A broken payload is refused: the last good one stays.
        served.withLock { $0 = #"{"features": "# }
        // Fetches run one after another: once three more were served, one that read the broken text was handled.
        let before = fetches.withLock { $0 }
        #expect(await Self.eventually { fetches.withLock { $0 } >= before + 3 })
        #expect(client.user().value(for: "title", default: "") == "second")
    }

    @Test func aStreamedPayloadReachesTheClient() async throws {
        let fetches = Mutex(0)
        // The fetch serves the first payload, the stream the second.
        let host = try TestHTTPServer.growthBook(
            streaming: true,
            fetched: { fetches.withLock { $0 += 1 } },
            payload: {
                Data(
                    (fetches.withLock { $0 } <= 1
                        ? #"{"features": {"title": {"defaultValue": "fetched"}}}"#
                        : #"{"features": {"title": {"defaultValue": "streamed"}}}"#).utf8
                )
            }
        )
        defer { host.stop() }
        let client = GrowthBookClient(
            apiHost: URL(string: "http://127.0.0.1:\(host.port)")!,
            clientKey: "test-key",
            refreshInterval: .seconds(3600),
            executor: QueueExecutor()
        )
        #expect(await client.waitForPayload(timeout: .seconds(10)))
        fetches.withLock { $0 += 1 }  // what the stream sends from now on
        #expect(await Self.eventually { client.user().value(for: "title", default: "") == "streamed" })
    }

    /// Polls `condition` for up to ten seconds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        await Poll.until(seconds: 10) { condition() }
    }
}
