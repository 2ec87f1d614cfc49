import Foundation
import LabDrivers

#if canImport(Glibc)
import Glibc
#endif

/// A one-thread HTTP/1.1 server on 127.0.0.1 for fault tests: each
/// connection's request goes to `respond`, which writes whatever it likes,
/// including nothing at all or half a body.
public final class TestHTTPServer: @unchecked Sendable {
    /// What the server does with one request.
    public enum Reply: @unchecked Sendable {
        case response(status: Int, headers: [String: String], body: Data)
        /// Headers promising `declared` bytes, then `sent` of them, then close.
        case truncated(declared: Int, sent: Data)
        /// Say nothing until the client gives up.
        case hang
        /// Headers, then one byte of body every `interval` seconds, `count` times.
        case trickle(every: TimeInterval, count: Int)
        /// A `200` with `headers`, then `chunk` again and again as fast as the
        /// client takes it, for `seconds` or until the client goes.
        case flood(headers: [String: String], chunk: Data, seconds: TimeInterval)
    }

    public let port: UInt16
    private let socket: Int32
    private let respond: @Sendable (_ requestHead: String) -> Reply
    private var running = true

    public init(_ respond: @escaping @Sendable (String) -> Reply) throws {
        self.respond = respond
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let port = LoopbackPort.bind(socket), listen(socket, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        self.port = port
        Thread.detachNewThread { [self] in serve() }
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/api/features/test-key")! }

    public func stop() {
        running = false
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private func serve() {
        while running {
            let client = accept(socket, nil, nil)
            guard client >= 0 else {
                // Out of descriptors (a suite holding thousands of connections in this
                // process) or interrupted: the server stays up and takes the next one.
                // Only stop() ends it, closing the socket.
                guard running, [EINTR, EMFILE, ENFILE, ECONNABORTED, ENOBUFS, ENOMEM].contains(errno) else { return }
                usleep(10_000)
                continue
            }
            Thread.detachNewThread { [self] in handle(client) }
        }
    }

    private func handle(_ client: Int32) {
        defer { close(client) }
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.contains("\r\n\r\n".data(using: .utf8)!) {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
        }
        switch respond(String(decoding: head, as: UTF8.self)) {
        case .response(let status, let headers, let body):
            var text = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            write(client, Data((text + "\r\n").utf8) + body)
        case .truncated(let declared, let sent):
            write(
                client,
                Data("HTTP/1.1 200 OK\r\nContent-Length: \(declared)\r\nConnection: close\r\n\r\n".utf8) + sent
            )
        case .hang:
            Thread.sleep(forTimeInterval: 5)
        case .flood(let headers, let chunk, let seconds):
            var text = "HTTP/1.1 200 OK\r\nConnection: close\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            guard write(client, Data((text + "\r\n").utf8)) else { return }
            let end = Date().addingTimeInterval(seconds)
            while running && Date() < end {
                guard write(client, chunk) else { return }
            }
        case .trickle(let interval, let count):
            write(client, Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8))
            for _ in 0..<count where running {
                Thread.sleep(forTimeInterval: interval)
                guard write(client, Data(" ".utf8)) else { return }
            }
        }
    }

    /// Writes all of `data`; `false` when the client has gone (one that gave
    /// up on a trickle). A plain `write` there raised SIGPIPE, which likely
    /// ended the whole test process once.
    @discardableResult
    private func write(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { sendAll($0, on: client) }
    }
}

extension TestHTTPServer {
    /// A GrowthBook API host serving `payload()` as it is at each request:
    /// `GET /api/features/<key>`, and, when `streaming`, the offer of
    /// server-sent events and `GET /sub/<key>` sending it as one `features`
    /// event per connection. `fetched` is called for each payload request.
    public static func growthBook(
        streaming: Bool,
        fetched: @escaping @Sendable () -> Void = {},
        payload: @escaping @Sendable () -> Data
    ) throws -> TestHTTPServer {
        try TestHTTPServer { head in
            let body = payload()
            if streaming && head.hasPrefix("GET /sub/") {
                let event = "event: features\ndata: " + String(decoding: body, as: UTF8.self) + "\n\n"
                return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(event.utf8))
            }
            fetched()
            return .response(status: 200, headers: streaming ? ["x-sse-support": "enabled"] : [:], body: body)
        }
    }
}
