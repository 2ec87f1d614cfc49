import Foundation
import Laboratory
import Testing

@testable import LaboratoryServer

#if canImport(Glibc)
import Glibc
#endif

/// Clients that misbehave on purpose: huge bodies, crowds of streams that
/// come and go, a stream nobody reads. The server answers or drops each and
/// keeps serving the others. Time bounds only prove termination.
@Suite(.serialized) struct HostileClientTests {
    @Test func aFiftyMegabyteBodyIsRefusedAndTheServerGoesOn() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        let client = try RawClient(port: served.port)
        defer { client.close() }
        let size = 50 << 20
        client.send(
            "POST /events/key HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n"
        )
        // Send until the server answers or stops reading; it must not take it all in.
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        var sent = 0
        while sent < size, client.sendSome(chunk) { sent += chunk.count }
        _ = client.read(until: "HTTP/1.1 ", timeout: 10)
        let answer = client.readAll(timeout: 0)
        #expect(answer.hasPrefix("HTTP/1.1 413") || answer.isEmpty, "\(answer.prefix(200))")
        #expect(try await served.request("api/features/key").status == 200)
    }

    @Test func aThousandStreamsComeAndGoAndTheServerForgetsThem() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        var clients: [RawClient] = []
        for _ in 0..<1_000 {
            let client = try RawClient(port: served.port)
            client.send("GET /sub/key HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
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
        let deadline = Date().addingTimeInterval(30)
        var round = 0
        while served.hub.activitySummary.openStreams > 0 && Date() < deadline {
            round += 1
            try console.debug.activate(variant: round % 2 == 0 ? "Red" : "Blue", of: "ButtonColor")
            try served.hub.rebuild()
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(served.hub.activitySummary.openStreams == 0)
        #expect(try await served.request("api/features/key").status == 200)
    }

    @Test func aStreamNobodyReadsHoldsNoMoreThanTheNewestPayload() async throws {
        let served = try await LabServerTests.Served()
        defer { served.stop() }
        let idle = try RawClient(port: served.port, receiveBuffer: 4096)
        defer { idle.close() }
        idle.send("GET /sub/key HTTP/1.1\r\nHost: x\r\n\r\n")
        let console = try served.console()
        // Hundreds of changes while it reads nothing.
        for index in 0..<300 {
            try console.debug.activate(variant: index % 2 == 0 ? "Blue" : "Red", of: "ButtonColor")
            try served.hub.rebuild()
        }
        // Everyone else is served as before, and a reader gets the newest payload.
        let reader = try RawClient(port: served.port)
        defer { reader.close() }
        reader.send("GET /sub/key HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(reader.read(until: "\"weights\":[1,0]", timeout: 20))  // Red was last
        #expect(try await served.request("api/features/key").status == 200)
    }
}

/// A TCP client on 127.0.0.1 that writes and reads raw HTTP.
final class RawClient: @unchecked Sendable {
    private let socket: Int32
    private var received = ""

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) { _ = sendSome(Array(text.utf8)) }

    /// Writes all of `bytes`; `false` once the server stopped taking them.
    func sendSome(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads until `marker` arrives or `timeout` seconds pass.
    func read(until marker: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !received.contains(marker) && Date() < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return received.contains(marker)
    }

    /// Everything until the server closes or `timeout` seconds pass.
    func readAll(timeout: TimeInterval) -> String {
        _ = read(until: "\u{0}never\u{0}", timeout: timeout)
        return received
    }

    func close() { Glibc.close(socket) }
}
