import NIOCore
import NIOHTTPTypes
import Synchronization

/// The server's open connections, and which of them sit idle since when.
///
/// Past ``threshold`` connections, each new one closes the one idle the
/// longest: a crowd of peers that connect and say nothing (or half a head)
/// costs at most the threshold's descriptors, and a client that comes with a
/// request still gets in. A connection answering a request (a stream
/// included) is never shed; streams have a write deadline of their own.
final class ConnectionRegistry: Sendable {
    let threshold: Int
    private let table = Mutex(Table())

    private struct Table {
        var next: UInt64 = 0
        var open: [ObjectIdentifier: Entry] = [:]
    }

    private struct Entry {
        var channel: any Channel
        /// When it last finished an answer or opened; `nil` while it is answering.
        var idleSince: UInt64?
    }

    init(threshold: Int) {
        self.threshold = max(1, threshold)
    }

    /// Notes a new connection; returns the idle ones to close to make room.
    func opened(_ channel: any Channel) -> [any Channel] {
        table.withLock { table in
            table.next += 1
            table.open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: table.next)
            var closing: [any Channel] = []
            // Usually one over: a scan for the oldest beats sorting thousands of connections.
            while table.open.count > threshold, let oldest = Self.longestIdle(in: table.open, sparing: channel) {
                closing.append(table.open.removeValue(forKey: oldest)!.channel)
            }
            return closing
        }
    }

    private static func longestIdle(in open: [ObjectIdentifier: Entry], sparing new: any Channel) -> ObjectIdentifier? {
        var found: (id: ObjectIdentifier, since: UInt64)?
        for (id, entry) in open where id != ObjectIdentifier(new) {
            guard let since = entry.idleSince, since < found?.since ?? .max else { continue }
            found = (id, since)
        }
        return found?.id
    }

    func answering(_ channel: any Channel) {
        table.withLock { $0.open[ObjectIdentifier(channel)]?.idleSince = nil }
    }

    func idle(_ channel: any Channel) {
        table.withLock { table in
            table.next += 1
            table.open[ObjectIdentifier(channel)]?.idleSince = table.next
        }
    }

    func closed(_ channel: any Channel) {
        _ = table.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// Tells the ``ConnectionRegistry`` when its connection opens, answers, idles and closes.
final class IdleConnectionShedder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var registered = false

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.closed(context.channel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        registry.closed(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { registry.answering(context.channel) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { registry.idle(context.channel) }
        context.write(data, promise: promise)
    }

    private func register(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        for stale in registry.opened(context.channel) { stale.close(promise: nil) }
    }
}
