import Foundation
import LabDrivers

#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that listens but never accepts, its one-place queue
/// already taken by a connection of its own: Linux drops a further
/// connection's handshake, so a client's connect waits until its timeout.
public final class FullBacklogPort: Sendable {
    public let port: UInt16
    private let listening: Int32
    private let queued: LoopbackConnection

    public init() throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listening >= 0 else { throw POSIXError(.EMFILE) }
        guard let port = LoopbackPort.bind(listening), listen(listening, 0) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        // The connection that takes the queue's one place.
        let queued: LoopbackConnection
        do {
            queued = try LoopbackConnection(port: Int(port))
        } catch {
            close(listening)
            throw POSIXError(.ECONNREFUSED)
        }
        self.listening = listening
        self.queued = queued
        self.port = port
    }

    /// A payload address on the port.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/api/features/test-key")! }

    deinit {
        queued.close()
        close(listening)
    }
}
