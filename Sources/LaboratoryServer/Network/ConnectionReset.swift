import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Closes a connection whose peer has stopped reading by resetting it, so
/// the kernel drops what it still holds for the peer at once.
///
/// Closed the ordinary way, the socket kept its unsent bytes in the kernel:
/// a stream client with a 4 KB receive buffer that never read, sent a payload
/// of 3,000 features, left its connection in `FIN-WAIT-1` with 2.8 MB unsent
/// after the server had closed it, for as long as the client stayed (until the
/// kernel gives up probing its closed window). In `lab-bench server-load`,
/// 500 such streams held 1.5 GB of the kernel's TCP memory that `lab serve`
/// no longer counted, and a client's median request took twice as long. With
/// `SO_LINGER` set to zero, closing sends a reset and frees the buffer; the
/// peer's next read fails with `ECONNRESET`, which is what a client that
/// stopped reading gets.
enum ConnectionReset {
    /// Resets `channel`'s connection, or closes it plainly where the channel
    /// has no socket to set (an embedded channel in tests).
    static func reset(_ channel: any Channel) {
        // NIO sets `SO_LINGER` only through `SocketOptionProvider`, which its
        // socket channels adopt: the channel option takes an `Int32`, and the
        // kernel refuses a `linger` of that size.
        guard let socket = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        onNextClose(socket).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Makes the next close of `socket` a reset (`SO_LINGER` of zero).
    static func onNextClose(_ socket: any SocketOptionProvider) -> EventLoopFuture<Void> {
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
    }
}
