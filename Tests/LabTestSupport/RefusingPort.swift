import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 where a connection is refused: a socket bound to it
/// that never listens. While it is open, no other server of the tests is
/// given the same port, as one could be the port of a server that stopped
/// (a request meant to be refused then reached another test's server).
public final class RefusingPort: Sendable {
    public let port: UInt16
    private let socket: Int32

    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = UInt16(bigEndian: address.sin_port)
    }

    /// A payload address on the port.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/api/features/test-key")! }

    deinit { close(socket) }
}
