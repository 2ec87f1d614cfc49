import NIOCore
import NIOHTTPTypes

#if canImport(Glibc)
import Glibc  // TCP_INFO, linger
#endif

/// Resets, rather than closes in order, a connection whose peer has stopped
/// taking what was sent: when it closes (the idle timeout, shedding, a
/// stream's write deadline), the kernel still holds bytes for the peer and
/// has sent none for ``ServerLimits/stalledPeerLimit``. With `SO_LINGER` at
/// zero the close sends a reset and the kernel frees what it held; the
/// peer's next read fails with `ECONNRESET`.
///
/// An answer goes to the kernel whole, and the connection counts as idle
/// from then on; the kernel holds the answer until the peer takes it. Closed
/// in order, a hundred peers that asked for a payload of 3,000 features with
/// 4 KB receive buffers and never read held 59 MB of kernel memory until the
/// idle timeout closed their connections, and then, in `FIN-WAIT-1`, for as
/// long as they stayed; in `lab-bench server-load`, 500 streams that never
/// read held 1.5 GB after their write deadline. Reset, they hold nothing. A peer that is
/// slow but reading, or that read its answer whole, is closed in order as
/// before: the kernel has sent it something lately, or holds nothing for it.
/// (A kernel-wide `TCP_USER_TIMEOUT` was measured and given up: it also
/// reset a reader taking 4 KB every 5 s.)
final class StalledPeerReset: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart

    private let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // NIO reads `TCP_INFO` and sets `SO_LINGER` only through
        // `SocketOptionProvider`, which its socket channels adopt (its channel
        // option takes an `Int32`, and the kernel refuses a `linger` of that
        // size); an embedded channel has no kernel buffer to drop.
        guard mode == .all, let socket = context.channel as? any SocketOptionProvider else {
            return context.close(mode: mode, promise: promise)
        }
        let limit = limit
        Self.sendState(of: socket)
            .flatMap { state -> EventLoopFuture<Void> in
                guard state.isStalled(for: limit) else { return socket.eventLoop.makeSucceededVoidFuture() }
                return socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            }
            .assumeIsolated()
            .whenComplete { _ in context.close(mode: mode, promise: promise) }
    }

    /// What the kernel holds for the peer, and since when it has sent nothing.
    struct SendState: Equatable {
        /// Bytes the kernel holds that it has not yet sent.
        var unsentBytes: UInt32
        /// Milliseconds since the kernel last sent the peer any data.
        var millisecondsSinceLastSend: UInt32

        /// Whether the peer has taken nothing for at least `limit` while bytes wait for it.
        func isStalled(for limit: Duration) -> Bool {
            let (seconds, attoseconds) = limit.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            return unsentBytes > 0 && Int64(millisecondsSinceLastSend) >= milliseconds
        }
    }

    /// The socket's `TCP_INFO`, read as bytes: Glibc's `tcp_info` stops
    /// before `tcpi_notsent_bytes` (Linux 4.6). Offsets from `<linux/tcp.h>`:
    /// `tcpi_last_data_sent` at 44, `tcpi_notsent_bytes` at 144; an older
    /// kernel that fills fewer bytes leaves the rest zero, so nothing looks stalled.
    private static func sendState(of socket: any SocketOptionProvider) -> EventLoopFuture<SendState> {
        socket.unsafeGetSocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_INFO))
            .map { (info: TCPInfoWords) in
                withUnsafeBytes(of: info) { bytes in
                    SendState(
                        unsentBytes: bytes.load(fromByteOffset: 144, as: UInt32.self),
                        millisecondsSinceLastSend: bytes.load(fromByteOffset: 44, as: UInt32.self)
                    )
                }
            }
            .recover { _ in SendState(unsentBytes: 0, millisecondsSinceLastSend: 0) }
    }

    /// Room for the first 160 bytes of the kernel's `struct tcp_info`.
    private typealias TCPInfoWords = (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    )
}
