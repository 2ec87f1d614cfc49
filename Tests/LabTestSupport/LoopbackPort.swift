import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Binding a test's socket to a free port on 127.0.0.1.
enum LoopbackPort {
    /// Binds `socket` to a port on 127.0.0.1 that the system picks, and says
    /// which; `nil` when the socket cannot be bound.
    static func bind(_ socket: Int32) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) }
        }
        guard bound == 0 else { return nil }
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
