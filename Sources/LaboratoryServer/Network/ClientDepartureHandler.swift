import NIOCore

/// Says when a stream's client leaves: it closes its side of the
/// connection (the server allows half-closed connections, so that arrives
/// as `inputClosed`, not as the channel closing) or the connection drops.
///
/// Without it, a stream learns its client left only when a write fails:
/// the next payload or ping, up to 20 s later.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let departed: @Sendable () -> Void

    init(_ departed: @escaping @Sendable () -> Void) {
        self.departed = departed
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { departed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        departed()
        context.fireChannelInactive()
    }
}
