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
        guard let port = LoopbackPort.bind(socket) else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        self.socket = socket
        self.port = port
    }

    /// A payload address on the port.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/api/features/test-key")! }

    deinit { close(socket) }
}
