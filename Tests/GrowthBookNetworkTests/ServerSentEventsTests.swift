import Foundation
import GrowthBook
import LabDrivers
import LabTestSupport
import Testing

@testable import GrowthBookNetwork

@Suite(.timeLimit(.minutes(2))) struct ServerSentEventsTests {
    @Test func parsesEventsAcrossChunksWithCommentsAndMultiLineData() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Data(": keep-alive\r\nevent: features\r\ndata: {\"a\"".utf8)).isEmpty)
        #expect(try parser.feed(Data(":1}\r\n\r\n".utf8)) == [ServerSentEvent(type: "features", data: #"{"a":1}"#)])
        #expect(
            try parser.feed(Data("data: one\ndata: two\n\nevent: features-updated\ndata:\n\n".utf8)) == [
                ServerSentEvent(type: "message", data: "one\ntwo"),
                ServerSentEvent(type: "features-updated", data: ""),
            ]
        )
    }

    @Test func theStreamerAppliesPayloadsRefetchesAndReconnects() async throws {
        let connections = Counter()
        let key = UUID().uuidString
        let server = try TestHTTPServer { head in
            // Only this test's streamer counts: another test's may find this port reused.
            guard head.hasPrefix("GET /sub/\(key) ") else { return .response(status: 404, headers: [:], body: Data()) }
            let body =
                connections.next() == 1
                ? "event: features\ndata: {\"features\": {}}\n\n"
                : "event: features-updated\ndata: {}\n\n"
            return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let payloads = Counter()
        let refetches = Counter()
        let task = StreamerUnderTest.start(port: server.port, key: key, payloads: payloads, refetches: refetches)
        defer { task.cancel() }
        #expect(await Poll.until(seconds: 20) { payloads.value > 0 && refetches.value > 0 })
        #expect(payloads.value >= 1)
        #expect(refetches.value >= 1)
        #expect(connections.value >= 2)  // the dropped stream reconnected
    }

    @Test func theFetcherNoticesStreamingSupport() async throws {
        let server = try TestHTTPServer { _ in
            .response(status: 200, headers: ["x-sse-support": "enabled"], body: Data(#"{"features": {}}"#.utf8))
        }
        defer { server.stop() }
        let fetcher = HTTPPayloadFetcher(url: server.url)
        #expect(!fetcher.streaming.isEnabled)
        _ = try await fetcher.fetch(etag: nil)
        #expect(fetcher.streaming.isEnabled)
    }
}

/// A streamer with quick backoff on a test server, counting what it does.
enum StreamerUnderTest {
    /// Runs on an executor with a thread of its own: suites that block the
    /// shared task pool (waiting on child processes) or keep Dispatch's
    /// shared threads busy (a server flooded by 2,500 connections) must not
    /// stall the stream.
    static func start(
        port: UInt16,
        key: String,
        payloads: Counter,
        refetches: Counter,
        refetchTakes: Duration = .zero
    ) -> Task<Void, Never> {
        let streamer = GrowthBookStreamer(
            url: GrowthBookStreamer.streamURL(host: URL(string: "http://127.0.0.1:\(port)")!, clientKey: key),
            initialBackoff: 0.05,
            maximumBackoff: 0.2
        )
        return Task(executorPreference: QueueExecutor(ownThread: true)) {
            await streamer.run(
                payload: { _ in _ = payloads.next() },
                refetch: {
                    _ = refetches.next()
                    if refetchTakes > .zero { try? await Task.sleep(for: refetchTakes) }
                }
            )
        }
    }
}

/// A counter several threads bump.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
