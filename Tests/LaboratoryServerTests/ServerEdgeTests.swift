import Foundation
import GRDB
import LabDrivers
import LabTestSupport
import Laboratory
import Synchronization
import Testing

@testable import LaboratoryServer

/// `lab serve` on a LAN: keys on every endpoint, `Host` and `Origin`
/// checked, writes as JSON at a bounded rate, connections and streams with
/// deadlines, and writes that never hold up reads. Time bounds only prove
/// termination, with a wide margin.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ServerEdgeTests {
    typealias Served = LabServerTests.Served

    /// How each endpoint is asked, with a key given one way or another.
    enum Key {
        case none, wrong, right

        var value: String { self == .right ? "sdk-good" : "sdk-bad" }
    }

    static func ask(_ endpoint: String, key: Key, on served: Served) -> LoopbackConnection.Answer {
        let connection = try! LoopbackConnection(port: served.port)
        defer { connection.close() }
        let pathKey = key == .none ? "" : key.value
        let header = key == .none ? "" : "Authorization: Bearer \(key.value)\r\n"
        let post = "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n"
        let request: String =
            switch endpoint {
            case "payload": "GET /api/features/\(pathKey) HTTP/1.1\r\n"
            case "stream": "HEAD /sub/\(pathKey) HTTP/1.1\r\n"
            case "events": "POST /events/\(pathKey) HTTP/1.1\r\n"
            case "demo": "GET /demo\(key == .none ? "" : "?key=\(key.value)") HTTP/1.1\r\n"
            case "ofrep single": "POST /ofrep/v1/evaluate/flags/buttonColor HTTP/1.1\r\n\(header)"
            case "ofrep bulk": "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\n\(header)"
            default: "HEAD /ofrep/v1/events HTTP/1.1\r\n\(header)"
            }
        let body = request.hasPrefix("POST") ? post + "[]" : "\r\n"
        let text = request + "Host: 127.0.0.1\r\n" + body
        // `events` with a key posts `[]`: nothing to record, but the key was taken.
        connection.send(text.replacingOccurrences(of: "[]", with: endpoint.hasPrefix("ofrep") ? "{}" : "[]"))
        return connection.answer(toHead: request.hasPrefix("HEAD"))
    }

    @Test func everyEndpointWantsItsKeyOnceKeysAreConfigured() async throws {
        let served = try await Served(clientKeys: ["sdk-good"])
        defer { served.stop() }
        let endpoints = ["payload", "stream", "events", "demo", "ofrep single", "ofrep bulk", "ofrep stream"]
        for endpoint in endpoints {
            for key in [Key.none, .wrong, .right] {
                let answer = Self.ask(endpoint, key: key, on: served)
                // A key in the path: without it, the path names nothing.
                let pathKeyed = ["payload", "stream", "events"].contains(endpoint)
                let expected = key == .right ? 200 : (pathKeyed && key == .none ? 404 : 401)
                #expect(answer.status == expected, "\(endpoint), \(key): \(answer.head)")
            }
        }
        // OFREP's other header.
        let connection = try LoopbackConnection(port: served.port)
        defer { connection.close() }
        let answer = connection.exchange(
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: sdk-good\r\nContent-Length: 2\r\n\r\n{}"
        )
        #expect(answer.status == 200)
    }

    @Test func aHostThatDoesNotNameTheServerIsRefused() async throws {
        let served = try await Served()
        defer { served.stop() }
        let connection = try LoopbackConnection(port: served.port)
        defer { connection.close() }
        for (host, status) in [
            ("evil.example", 421), ("evil.example:\(served.port)", 421), ("localhost:\(served.port)", 200),
        ] {
            let answer = connection.exchange("GET /api/features/key HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(answer.status == status, "\(host)")
        }
        let preflight = connection.exchange(
            "OPTIONS /events/key HTTP/1.1\r\nHost: rebound.example\r\nOrigin: http://rebound.example\r\n"
                + "Access-Control-Request-Method: POST\r\n\r\n"
        )
        #expect(preflight.status == 421)
    }

    @Test func onlyJSONFromAllowedPagesIsWritten() async throws {
        let served = try await Served(access: AccessPolicy(listening: "127.0.0.1", origins: ["http://qa.example"]))
        defer { served.stop() }
        let event = #"[{"experiment": "ButtonColor", "variant": "Blue", "reason": "clicked"}]"#
        let store = try served.console().store
        let before = try store.latestEvents(limit: 100).count
        let cases: [(headers: [String: String], status: Int)] = [
            (["Content-Type": "text/plain"], 415),  // a form or fetch with no preflight
            (["Content-Type": "application/json", "Origin": "http://evil.example"], 403),
            (["Content-Type": "application/json", "Origin": "http://qa.example"], 200),
            (["Content-Type": "application/json; charset=utf-8", "Origin": "http://127.0.0.1:\(served.port)"], 200),
            (["Content-Type": "application/json"], 200),
        ]
        for (headers, status) in cases {
            let answer = try await served.request(
                "events/key",
                method: "POST",
                body: Data(event.utf8),
                headers: headers
            )
            #expect(answer.status == status, "\(headers)")
        }
        #expect(try store.latestEvents(limit: 100).count == before + 3)
    }

    @Test func eventsBeyondTheRateAreRefusedWithRetryAfter() async throws {
        var limits = ServerLimits()
        limits.eventsPerSecond = 0.01
        limits.eventBurst = 3
        let served = try await Served(limits: limits)
        defer { served.stop() }
        let event = #"{"experiment": "ButtonColor", "variant": "Blue", "reason": "clicked"}"#
        let three = try await served.request(
            "events/key",
            method: "POST",
            body: Data("[\(event),\(event),\(event)]".utf8)
        )
        #expect(three.status == 200)
        let more = try await served.request("events/key", method: "POST", body: Data("[\(event)]".utf8))
        #expect(more.status == 429)
        #expect(Int(more.headers["retry-after"] ?? "") ?? 0 >= 1)
        let huge = try await served.request(
            "events/key",
            method: "POST",
            body: Data("[\(event),\(event),\(event),\(event)]".utf8)
        )
        #expect(huge.status == 413)
        #expect(try await served.request("api/features/key").status == 200)  // reads are not limited
    }

    @Test func aHalfSentRequestIsClosedAfterTheIdleTimeout() async throws {
        var limits = ServerLimits()
        limits.idleTimeout = .seconds(1)
        let served = try await Served(limits: limits)
        defer { served.stop() }
        let slow = try LoopbackConnection(port: served.port)
        defer { slow.close() }
        slow.send("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        let started = Date()
        #expect(slow.readAvailable(timeout: 30).isEmpty)  // closed, with no answer
        #expect(Date().timeIntervalSince(started) < 25)
        #expect(try await served.request("api/features/key").status == 200)
    }

    /// A byte every 200 ms restarts the idle timeout each time; the body's
    /// deadline, counted from its head, ends it all the same.
    @Test func aBodyThatTricklesInIsCutAtItsDeadline() async throws {
        var limits = ServerLimits()
        limits.bodyDeadline = .seconds(1)
        let served = try await Served(limits: limits)
        defer { served.stop() }
        let trickler = try LoopbackConnection(port: served.port)
        defer { trickler.close() }
        trickler.send(
            "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        )
        // A byte at a time until the server answers (or stops taking them).
        _ = await Poll.until(seconds: 25, every: .zero) {
            !trickler.send([UInt8(ascii: " ")]) || trickler.hasBytes(within: 0.2)
        }
        let answer = trickler.readAvailable(timeout: 20)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(try await served.request("api/features/key").status == 200)
    }

    @Test func aCrowdOfIdleConnectionsLeavesRoomForARequest() async throws {
        var limits = ServerLimits()
        limits.maximumConnections = 64
        limits.idleSheddingThreshold = 32
        let served = try await Served(limits: limits)
        defer { served.stop() }
        var crowd: [LoopbackConnection] = []
        defer { for connection in crowd { connection.close() } }
        for _ in 0..<200 {
            let idle = try LoopbackConnection(port: served.port)
            idle.send("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n")  // half a head, then nothing
            crowd.append(idle)
        }
        for _ in 0..<5 {
            let client = try LoopbackConnection(port: served.port)
            defer { client.close() }
            #expect(client.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
        }
    }

    @Test func expectContinueIsAnsweredAndAnOversizedBodyClosesAtOnce() async throws {
        let served = try await Served()
        defer { served.stop() }
        let polite = try LoopbackConnection(port: served.port)
        defer { polite.close() }
        let body = #"[{"experiment": "ButtonColor", "variant": "Blue"}]"#
        polite.send(
            "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
        )
        #expect(polite.read(until: "HTTP/1.1 100 Continue\r\n\r\n", timeout: 20))
        #expect(polite.exchange(body).status == 200)

        for head in [
            "Content-Length: \(2 << 20)\r\nConnection: close\r\n",
            "Content-Length: \(2 << 20)\r\nExpect: 100-continue\r\n",
        ] {
            let large = try LoopbackConnection(port: served.port)
            defer { large.close() }
            large.send("POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(head)\r\n")
            let answer = large.readAvailable(timeout: 20)  // returns once the server closes
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"))
        }
        let chunked = try LoopbackConnection(port: served.port)
        defer { chunked.close() }
        chunked.send(
            "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        let chunk = String(repeating: " ", count: 64 << 10)
        for _ in 0..<20 { chunked.send(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n") }
        #expect(chunked.readAvailable(timeout: 20).hasPrefix("HTTP/1.1 413"))
    }

    /// A client that sends its whole body before it reads (Python's
    /// `urllib`, most scripts) gets the 413 sent at the head, not a reset:
    /// the server reads on and drops what follows, so the kernel never
    /// answers the body's bytes with a reset that fails the client's send.
    @Test func aClientThatSendsItsWholeOversizedBodyStillReadsThe413() async throws {
        let served = try await Served()
        defer { served.stop() }
        let client = try LoopbackConnection(port: served.port)
        defer { client.close() }
        let size = 2 << 20
        client.sendEventsHead(contentLength: size)
        // The answer is in before the body goes: a server that closed
        // outright now has the connection reset by what comes next.
        #expect(client.hasBytes(within: 20))
        let sent = client.sendBody(size)
        #expect(sent == size, "the server reset the connection after \(sent) bytes of the body")
        let answer = client.readAvailable(timeout: 20)  // returns once the server closes
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
    }

    @Test func aTransferCodingOtherThanChunkedIsNotReadAsPlain() async throws {
        let served = try await Served()
        defer { served.stop() }
        let client = try LoopbackConnection(port: served.port)
        defer { client.close() }
        client.send(
            "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n"
        )
        #expect(client.readAvailable(timeout: 20).hasPrefix("HTTP/1.1 501"))
    }

    @Test func headIsAnsweredWhereGetIs() async throws {
        let served = try await Served()
        defer { served.stop() }
        let client = try LoopbackConnection(port: served.port)
        defer { client.close() }
        for path in ["/api/features/key", "/sub/key", "/demo", "/ofrep/v1/events"] {
            client.send("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(client.read(until: "HTTP/1.1 200 OK\r\n", timeout: 20), "\(path)")
            #expect(client.read(until: "\r\n\r\n", timeout: 20), "\(path)")
        }
        // No body came with any of them: the next answer follows at once.
        #expect(client.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
    }

    @Test func aStreamThatStopsReadingIsResetAfterTheWriteDeadline() async throws {
        var limits = ServerLimits()
        limits.streamWriteDeadline = .milliseconds(500)
        limits.stalledPeerLimit = .milliseconds(200)
        let served = try await Served(growthBook: LoadFixtures.payload(bytes: 2 << 20), limits: limits)
        defer { served.stop() }
        let idle = try LoopbackConnection(port: served.port, receiveBuffer: 4096)
        defer { idle.close() }
        idle.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let console = try served.console()
        var round = 0
        // Each change is one more write the stream cannot take; the server gives up on it.
        let closed = try await Poll.until(seconds: 60, every: .milliseconds(200)) {
            guard round == 0 || served.hub.activitySummary.openStreams > 0 else { return true }
            round += 1
            try #require(console.debug).force(variant: round % 2 == 0 ? "Red" : "Blue", of: "ButtonColor")
            try served.hub.rebuild()
            return false
        }
        #expect(closed)
        // Reset, not closed in order: the kernel dropped the events the reader never took.
        #expect(idle.end(within: 30) == .reset)
        #expect(try await served.request("api/features/key").status == 200)
    }

    /// A server of a 2 MB payload (far more than a 4 KB receive buffer ever
    /// takes) whose connections idle out after a second.
    private func servedIdlingOut() async throws -> Served {
        var limits = ServerLimits()
        limits.idleTimeout = .seconds(1)
        limits.stalledPeerLimit = .milliseconds(200)
        return try await Served(growthBook: LoadFixtures.payload(bytes: 2 << 20), limits: limits)
    }

    @Test func aPeerThatNeverReadsItsAnswerIsResetWhenItsConnectionIdlesOut() async throws {
        let served = try await servedIdlingOut()
        defer { served.stop() }
        let stalled = try LoopbackConnection(port: served.port, receiveBuffer: 4096)
        defer { stalled.close() }
        stalled.send("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // Closed in order, the close would wait behind the answer the peer never takes.
        #expect(stalled.end(within: 30) == .reset)
        #expect(try await served.request("api/features/key").status == 200)
    }

    @Test func aPeerThatTookItsAnswerIsClosedInOrderWhenItsConnectionIdlesOut() async throws {
        let served = try await servedIdlingOut()
        defer { served.stop() }
        let reader = try LoopbackConnection(port: served.port)
        defer { reader.close() }
        #expect(reader.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
        #expect(reader.end(within: 30) == .closed)
    }

    @Test func aWriteHeldUpByAnotherProcessDoesNotHoldUpReads() async throws {
        var limits = ServerLimits()
        limits.pendingWrites = 4
        let served = try await Served(limits: limits)
        defer { served.stop() }
        // Another process takes the write lock and keeps it until the reads are done.
        let other = try DatabaseQueue(path: served.folder + "/state.sqlite")
        let locked = Mutex(false)
        // The lock is held on a thread of its own, blocked until the test lets it go.
        let release = DispatchSemaphore(value: 0)
        let locker = Task.detached {
            try other.inTransaction(.immediate) { _ in
                locked.withLock { $0 = true }
                release.wait()
                return .commit
            }
        }
        defer { release.signal() }  // on every way out: a second signal is harmless
        #expect(await Poll.until(seconds: 30, every: .milliseconds(5)) { locked.withLock { $0 } })
        let event = #"[{"experiment": "ButtonColor", "variant": "Blue", "reason": "clicked"}]"#
        var posts: [LoopbackConnection] = []
        defer { for connection in posts { connection.close() } }
        for _ in 0..<8 {
            let post = try LoopbackConnection(port: served.port)
            post.send(
                "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(event.utf8.count)\r\n\r\n\(event)"
            )
            posts.append(post)
        }
        // While the writes wait for the lock, every read is answered, and the
        // writes the queue has no room for are refused at once.
        let reader = try LoopbackConnection(port: served.port)
        defer { reader.close() }
        var answered = 0
        var refusedEarly: Set<Int> = []
        _ = await Poll.until(seconds: 30, every: .zero) {
            if reader.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200 {
                answered += 1
            }
            for (index, post) in posts.enumerated() where post.hasBytes(within: 0.01) { refusedEarly.insert(index) }
            return !refusedEarly.isEmpty
        }
        #expect(answered > 0)
        #expect(!refusedEarly.isEmpty, "no write was refused while the lock was held")
        release.signal()
        try await locker.value
        let statuses = posts.map { $0.answer().status }
        for index in refusedEarly { #expect(statuses[index] == 503, "\(statuses)") }
        // Four waited and went in; the queue had no room for the rest.
        #expect(statuses.filter { $0 == 200 }.count >= 4, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        #expect(statuses.contains(503), "\(statuses)")
    }
}
