import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to 127.0.0.1 that writes raw HTTP and reads what comes
/// back, for tests and benchmarks that must misbehave or go faster than
/// URLSession: keep-alive exchanges, streams read byte by byte or not at all.
package final class LoopbackConnection: @unchecked Sendable {
    private let socket: Int32
    private var buffer = [UInt8]()

    /// An answer's status (0 when the connection ended first) and head.
    package struct Answer {
        package var status = 0
        package var head = ""

        /// A header's value, by lowercase name.
        package func header(_ name: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    package struct Refused: Error {}

    /// Connects; `receiveBuffer` shrinks the socket's buffer, for a reader that falls behind.
    package init(port: Int, receiveBuffer: Int32? = nil) throws {
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
        guard connected == 0 else {
            Glibc.close(socket)
            throw Refused()
        }
    }

    package func send(_ text: String) { _ = send(Array(text.utf8)) }

    /// Writes all of `bytes`; `false` once the server stopped taking them.
    package func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll($0, on: socket) }
    }

    /// Sends the head of a post of events (`POST /events/key`) whose body,
    /// sent after with ``sendBody(_:)``, is `contentLength` bytes.
    package func sendEventsHead(contentLength: Int) {
        send(
            "POST /events/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(contentLength)\r\n\r\n"
        )
    }

    /// Sends `count` bytes of a body (spaces, 64 KiB at a time); returns how
    /// many went before the server stopped taking them.
    package func sendBody(_ count: Int) -> Int {
        let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
        var sent = 0
        while sent < count {
            let part = min(chunk.count, count - sent)
            guard chunk.withUnsafeBytes({ sendAll(UnsafeRawBufferPointer(rebasing: $0[..<part]), on: socket) })
            else { break }
            sent += part
        }
        return sent
    }

    /// Sends a request and reads its whole answer (by `Content-Length`).
    package func exchange(_ request: String) -> Answer {
        send(request)
        return answer()
    }

    /// Reads the whole answer to a request sent before (by `Content-Length`;
    /// only its head for `HEAD`, whose answer has no body whatever its length says).
    package func answer(toHead: Bool = false) -> Answer {
        guard let end = fill(until: Array("\r\n\r\n".utf8), timeout: 30) else { return Answer() }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var answer = Answer(status: Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0, head: head)
        let length = toHead ? 0 : Int(answer.header("content-length") ?? "0") ?? 0
        while buffer.count < length, receive(timeout: 30) {}
        if buffer.count < length { answer.status = 0 }
        buffer.removeFirst(min(length, buffer.count))
        return answer
    }

    /// Reads until `marker` arrives (and drops what came up to it), or `timeout` seconds pass.
    package func read(until marker: String, timeout: TimeInterval = 30) -> Bool {
        guard let start = fill(until: Array(marker.utf8), timeout: timeout) else { return false }
        buffer.removeFirst(start + marker.utf8.count)
        return true
    }

    /// What has arrived within `timeout` seconds, until the server closes.
    package func readAvailable(timeout: TimeInterval) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, receive(timeout: deadline.timeIntervalSinceNow) {}
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    private func fill(until marker: [UInt8], timeout: TimeInterval) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let range = buffer.firstRange(of: marker) { return range.lowerBound }
            guard Date() < deadline, receive(timeout: deadline.timeIntervalSinceNow) else { return nil }
        }
    }

    /// How a connection ended, as its reader sees it.
    package enum Ending: Equatable {
        /// The server closed it in order: everything it had sent arrived.
        case closed
        /// The server reset it: what it had not yet delivered was dropped.
        case reset
        /// Still open when the time was up (or closed behind bytes this
        /// reader has not taken, which hold the server's close back).
        case open
    }

    /// Waits up to `timeout` seconds for the server to end the connection,
    /// reading nothing, so a reader that stopped reading stays stopped; says
    /// how it ended.
    package func end(within timeout: TimeInterval) -> Ending {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Only the end is asked for (`POLLRDHUP`, which Glibc's module leaves
            // out): bytes waiting to be read do not wake the poll.
            var poller = pollfd(fd: socket, events: 0x2000, revents: 0)
            let ready = poll(&poller, 1, Int32(max(0, min(deadline.timeIntervalSinceNow, 60)) * 1000))
            guard ready > 0 else { continue }
            if poller.revents & Int16(POLLERR) != 0 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
                return error == ECONNRESET ? .reset : .closed
            }
            return .closed
        }
        return .open
    }

    /// Whether an answer has begun to arrive within `timeout` seconds (it stays to be read).
    package func hasBytes(within timeout: TimeInterval) -> Bool {
        !buffer.isEmpty || receive(timeout: timeout)
    }

    /// Waits up to `timeout` seconds for bytes; `false` when none came or the connection ended.
    private func receive(timeout: TimeInterval) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(0, min(timeout, 60)) * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    package func close() { Glibc.close(socket) }
}
