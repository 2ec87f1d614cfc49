import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that listens but never accepts, its one-place queue
/// already taken by a connection of its own: Linux drops a further
/// connection's handshake, so a client's connect waits until its timeout.
public final class FullBacklogPort: Sendable {
    public let port: UInt16
    private let listening: Int32
    private let queued: Int32

    public init() throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listening >= 0 else { throw POSIXError(.EMFILE) }
        guard let port = LoopbackPort.bind(listening), listen(listening, 0) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        let queued = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(queued, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard queued >= 0, connected == 0 else {
            close(listening)
            if queued >= 0 { close(queued) }
            throw POSIXError(.ECONNREFUSED)
        }
        self.listening = listening
        self.queued = queued
        self.port = port
    }

    /// A payload address on the port.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/api/features/test-key")! }

    deinit {
        close(queued)
        close(listening)
    }
}
