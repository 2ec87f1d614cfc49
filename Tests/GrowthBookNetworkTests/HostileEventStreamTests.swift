import Foundation
import GrowthBook
import LabDrivers
import LabTestSupport
import Testing

@testable import GrowthBookNetwork

/// Event streams built to exhaust memory or a core. Time bounds only prove
/// termination: they are about a hundred times what the parser needs.
@Suite(.timeLimit(.minutes(2))) struct HostileEventStreamTests {
    @Test func linesEndInLFCRLFOrCRAndACRLFMaySplitAcrossChunks() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Data("data: a\r".utf8)).isEmpty)
        #expect(try parser.feed(Data("\n\r".utf8)) == [ServerSentEvent(type: "message", data: "a")])
        #expect(
            try parser.feed(Data("event: features\rdata: b\r\rdata: c\n\n".utf8)) == [
                ServerSentEvent(type: "features", data: "b"), ServerSentEvent(type: "message", data: "c"),
            ]
        )
    }

    @Test func aStreamWithoutNewlinesIsRefusedOnceItPassesTheCap() {
        var parser = ServerSentEventParser(maximumLineBytes: 1 << 20)
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 64 << 10)
        var fed = 0
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ServerSentEventParser.LineTooLong.self) {
            while fed < 64 << 20 {  // stops long before: at the 1 MiB cap
                _ = try parser.feed(chunk)
                fed += chunk.count
            }
        }
        #expect(fed <= 1 << 20)
        #expect(clock.now - start < .seconds(30))  // termination, with a margin for a loaded machine
    }

    @Test func aTenMegabyteLineIsRefusedAfterTheCapInLinearTime() {
        var parser = ServerSentEventParser()  // the default 8 MiB cap
        let body = Data(("data: " + String(repeating: "w", count: 10_000_000) + "\n\n").utf8)
        let clock = ContinuousClock()
        let start = clock.now
        var offset = 0
        #expect(throws: ServerSentEventParser.LineTooLong.self) {
            while offset < body.count {
                let end = min(offset + 4096, body.count)
                _ = try parser.feed(body.subdata(in: offset..<end))
                offset = end
            }
        }
        #expect(offset <= 8 << 20 + 4096)
        #expect(clock.now - start < .seconds(60))
    }

    @Test func manyDataLinesCountTowardsTheCapToo() {
        var parser = ServerSentEventParser(maximumLineBytes: 1 << 20)
        let line = Data(("data: " + String(repeating: "y", count: 1000) + "\n").utf8)
        #expect(throws: ServerSentEventParser.LineTooLong.self) {
            for _ in 0..<2_000 { _ = try parser.feed(line) }
        }
    }

    @Test func aLongLineInSmallChunksCostsLinearTime() throws {
        // 7 MiB of data in one line, under the default 8 MiB cap, in 4 KiB chunks.
        var parser = ServerSentEventParser()
        let body = Data(("event: features\ndata: " + String(repeating: "z", count: 7 << 20) + "\n\n").utf8)
        var events: [ServerSentEvent] = []
        let clock = ContinuousClock()
        let start = clock.now
        var offset = 0
        while offset < body.count {
            let end = min(offset + 4096, body.count)
            events += try parser.feed(body.subdata(in: offset..<end))
            offset = end
        }
        #expect(clock.now - start < .seconds(60))
        #expect(events.count == 1)
        #expect(events.first?.data.count == 7 << 20)
    }

    @Test func aStormOfUpdateEventsCostsOneOrTwoFetches() async throws {
        let connections = Counter()
        let storm =
            String(repeating: "event: features-updated\ndata: {}\n\n", count: 200)
            + String(repeating: "event: features\ndata: {\"features\": {}}\n\n", count: 200)
        let key = UUID().uuidString
        let server = try TestHTTPServer { head in
            // Only this test's streamer counts: another test's may find this port reused.
            guard head.hasPrefix("GET /sub/\(key) ") else { return .response(status: 404, headers: [:], body: Data()) }
            let body = connections.next() == 1 ? storm : ": quiet\n\n"
            return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let payloads = Counter()
        let refetches = Counter()
        // A fetch takes a while, so the storm arrives while one is under way.
        let task = StreamerUnderTest.start(
            port: server.port,
            key: key,
            payloads: payloads,
            refetches: refetches,
            refetchTakes: .milliseconds(50)
        )
        defer { task.cancel() }
        // The second connection starts only once the first one's events were all handled.
        #expect(await Poll.until(seconds: 20) { connections.value >= 2 })
        #expect((1...2).contains(refetches.value), "\(refetches.value) refetches")
        #expect((1...9).contains(payloads.value), "\(payloads.value) payloads applied")
    }
}
