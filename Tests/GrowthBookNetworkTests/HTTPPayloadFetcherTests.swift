import Foundation
import LabTestSupport
import Laboratory
import LaboratoryTesting
import Testing

@testable import GrowthBookNetwork

/// The HTTP fetcher and the GrowthBook source against a real server on
/// 127.0.0.1 that answers well, badly, or not at all.
@Suite struct HTTPPayloadFetcherTests {
    static let payload = Data(
        #"{"features": {"color": {"defaultValue": "red", "rules": [{"key": "color-test", "variations": ["red", "blue"]}]}}}"#
            .utf8
    )

    private func source(
        _ url: URL,
        store: InMemoryStateStore,
        idleTimeout: TimeInterval = 5,
        requestTimeout: TimeInterval = 30
    ) throws -> GrowthBookSource {
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        return GrowthBookSource(
            store: store,
            device: device,
            fetcher: HTTPPayloadFetcher(url: url, idleTimeout: idleTimeout, requestTimeout: requestTimeout)
        )
    }

    @Test func fetchesRevalidatesWithTheETagAndKeepsThePayload() async throws {
        let server = try TestHTTPServer { head in
            head.contains("If-None-Match: \"v1\"")
                ? .response(status: 304, headers: [:], body: Data())
                : .response(status: 200, headers: ["ETag": "\"v1\""], body: Self.payload)
        }
        defer { server.stop() }
        let fetcher = HTTPPayloadFetcher(url: server.url)
        #expect(try await fetcher.fetch(etag: nil) == .payload(Self.payload, etag: "\"v1\""))
        #expect(try await fetcher.fetch(etag: "\"v1\"") == .notModified)

        let store = InMemoryStateStore()
        let source = try source(server.url, store: store)
        try await source.update()
        try await source.update()  // 304: nothing changes
        #expect(source.experiments.map(\.name) == ["color-test"])
        #expect(try store.payload(source: "GrowthBook")?.etag == "\"v1\"")
    }

    @Test(arguments: [
        ("500", TestHTTPServer.Reply.response(status: 500, headers: [:], body: Data("oops".utf8)), "HTTP 500"),
        ("404", .response(status: 404, headers: [:], body: Data()), "HTTP 404"),
        ("invalid JSON", .response(status: 200, headers: [:], body: Data("{ nope".utf8)), "malformed payload JSON"),
        ("invalid UTF-8", .response(status: 200, headers: [:], body: Data([0xFF, 0xFE, 0x7B])), "not UTF-8"),
        ("closed mid-body", .truncated(declared: 5000, sent: Data("{\"features\":".utf8)), "closed"),
        ("hangs", .hang, "did not answer in time"),
        ("50 MiB", .response(status: 200, headers: [:], body: Data(count: 50 << 20)), "larger than 8 MiB"),
        // URLSession would inflate a gzip bomb in full before the cap saw it.
        (
            "gzip body", .response(status: 200, headers: ["Content-Encoding": "gzip"], body: Data(count: 4096)),
            "sent a gzip body though none was asked for"
        ),
        // A byte every half second keeps the idle timer happy; the whole-request deadline does not wait.
        ("trickles", .trickle(every: 0.5, count: 120), "took longer than 3 s"),
    ])
    func aBadServerLeavesTheLastGoodPayload(name: String, reply: TestHTTPServer.Reply, reason: String) async throws {
        let good = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: Self.payload) }
        defer { good.stop() }
        let store = InMemoryStateStore()
        try await source(good.url, store: store).update()
        let before = try store.payload(source: "GrowthBook")

        let bad = try TestHTTPServer { _ in reply }
        defer { bad.stop() }
        // The idle timer decides only for the server that hangs, the whole-request deadline
        // only for the one that trickles: for the others a loaded machine (the whole suite
        // at once) may take seconds to show what they did. (A close mid-body lost to a 3 s
        // deadline once and to a 10 s idle timer later: a tmux server started meanwhile had
        // inherited the server's socket, so closing it ended nothing. `Subprocess` now
        // gives a child no descriptor but its three.)
        let source = try source(
            bad.url,
            store: store,
            idleTimeout: name == "hangs" ? 1 : 10,
            requestTimeout: name == "trickles" ? 3 : 30
        )
        let active = try source.activeVariants()
        do {
            try await source.update()
            Issue.record("\(name): expected the fetch to fail")
        } catch {
            #expect(String(describing: error).contains(reason), "\(name): \(error)")
        }
        #expect(try source.activeVariants() == active)
        #expect(try store.payload(source: "GrowthBook") == before)
    }

    @Test func asksForTheBodyUncompressed() async throws {
        let heads = Locked<[String]>([])
        let server = try TestHTTPServer { head in
            heads.withLock { $0.append(head) }
            return .response(status: 200, headers: [:], body: Self.payload)
        }
        defer { server.stop() }
        _ = try await HTTPPayloadFetcher(url: server.url).fetch(etag: nil)
        #expect(heads.value.first?.lowercased().contains("accept-encoding: identity") == true)
    }
}

/// A value several threads read and write.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }

    var value: Value { withLock { $0 } }
}

/// Many fetches at once, each ending its session while the session's queue
/// may still be busy with its task (finished, or cancelled for passing the
/// cap): Foundation's `invalidateAndCancel()` raced that and crashed a test run.
@Suite struct HTTPPayloadFetcherSessionEndTests {
    @Test func manyFetchesEndTheirSessionsSafely() async throws {
        let server = try TestHTTPServer { _ in
            .response(status: 200, headers: [:], body: HTTPPayloadFetcherTests.payload)
        }
        defer { server.stop() }
        let whole = HTTPPayloadFetcher(url: server.url)
        let capped = HTTPPayloadFetcher(url: server.url, maximumBytes: 16)
        let (fetched, refused) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var (fetched, refused) = (0, 0)
                    for _ in 0..<100 {
                        if try await whole.fetch(etag: nil) != .notModified { fetched += 1 }
                        do {
                            _ = try await capped.fetch(etag: nil)
                        } catch {
                            refused += 1
                        }
                    }
                    return (fetched, refused)
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(fetched == 800)
        #expect(refused == 800)
    }
}
