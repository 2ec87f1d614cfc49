import Foundation
import LabDrivers
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratoryServer

/// Clients that misbehave on purpose: huge bodies, crowds of streams that
/// come and go, a stream nobody reads. The server answers or drops each and
/// keeps serving the others. Time bounds only prove termination.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HostileClientTests {
    @Test func aFiftyMegabyteBodyIsRefusedAndTheServerGoesOn() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        let client = try LoopbackConnection(port: served.port)
        defer { client.close() }
        let size = 50 << 20
        client.sendEventsHead(contentLength: size)
        // Send until the server stops reading: it answers at the head and
        // drops the body, never holding it, for its lingering at most.
        _ = client.sendBody(size)
        let answer = client.readAvailable(timeout: 5)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        #expect(try await served.request("api/features/key").status == 200)
    }

    @Test func aThousandStreamsComeAndGoAndTheServerForgetsThem() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        var clients: [LoopbackConnection] = []
        for _ in 0..<1_000 {
            let client = try LoopbackConnection(port: served.port)
            client.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            clients.append(client)
        }
        // Each gets its first event, then drops.
        var answered = 0
        for client in clients where client.read(until: "event: features", timeout: 20) { answered += 1 }
        #expect(answered == 1_000)
        #expect(served.hub.activitySummary.openStreams == 1_000)
        for client in clients { client.close() }
        // A dropped stream is noticed when the server writes to it: the first write
        // after the client left still goes out (the reset comes back), a later one fails.
        // Changes keep coming here as they do in a demo; pings do the same every 20 s.
        let console = try served.console()
        var round = 0
        let closed = try await Poll.until(seconds: 30, every: .milliseconds(100)) {
            guard served.hub.activitySummary.openStreams > 0 else { return true }
            round += 1
            try #require(console.debug).force(variant: round % 2 == 0 ? "Red" : "Blue", of: "ButtonColor")
            try served.hub.rebuild()
            return false
        }
        #expect(closed)
        #expect(try await served.request("api/features/key").status == 200)
    }

    /// Settings said "1 open stream" for about 20 s after the client had
    /// gone: the server learnt of it only when the next ping failed.
    @Test func aStreamWhoseClientLeftIsForgottenWithoutWaitingForAWrite() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        for path in ["sub/key", "sub/key"] {
            let client = try LoopbackConnection(port: served.port)
            client.send("GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            #expect(client.read(until: "event: ", timeout: 20), "\(path)")
            #expect(served.hub.activitySummary.openStreams == 1, "\(path)")
            client.close()
            // Nothing is written to the stream meanwhile: no change, and pings are 20 s apart.
            #expect(await Poll.until(seconds: 10) { served.hub.activitySummary.openStreams == 0 }, "\(path)")
        }
    }

    @Test func aStreamNobodyReadsHoldsNoMoreThanTheNewestPayload() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        let idle = try LoopbackConnection(port: served.port, receiveBuffer: 4096)
        defer { idle.close() }
        idle.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let console = try served.console()
        // Hundreds of changes while it reads nothing.
        for index in 0..<300 {
            try #require(console.debug).force(variant: index % 2 == 0 ? "Blue" : "Red", of: "ButtonColor")
            try served.hub.rebuild()
        }
        // Everyone else is served as before, and a reader gets the newest payload.
        let reader = try LoopbackConnection(port: served.port)
        defer { reader.close() }
        reader.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(reader.read(until: "\"weights\":[1,0]", timeout: 20))  // Red was last
        #expect(try await served.request("api/features/key").status == 200)
    }

    /// The load `lab-bench server-load` measures, as a test: bounded, on
    /// loopback, and it stops by itself. The benchmark reports memory and
    /// latency; here the normal client must simply keep being answered.
    @Test func twoThousandIdleConnectionsAndFiveHundredStalledStreamsLeaveANormalClientServed() async throws {
        let served = try await LabServerTests.Served(growthBook: LoadFixtures.payload(bytes: 2 << 20))
        defer { served.stop() }
        var crowd: [LoopbackConnection] = []
        defer { for connection in crowd { connection.close() } }
        for _ in 0..<2_000 { crowd.append(try LoopbackConnection(port: served.port)) }
        for _ in 0..<500 {
            let stream = try LoopbackConnection(port: served.port, receiveBuffer: 4096)
            stream.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            crowd.append(stream)
        }
        let console = try served.console()
        let normal = try LoopbackConnection(port: served.port)
        defer { normal.close() }
        var answered = 0
        for round in 0..<20 {
            try #require(console.debug).force(variant: round % 2 == 0 ? "Blue" : "Red", of: "ButtonColor")
            try served.hub.rebuild()
            let answer = normal.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            if answer.status == 200 { answered += 1 }
        }
        #expect(answered == 20)
        let fresh = try LoopbackConnection(port: served.port)
        defer { fresh.close() }
        #expect(fresh.exchange("GET /api/features/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 200)
    }
}
