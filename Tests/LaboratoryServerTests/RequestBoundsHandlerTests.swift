import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import LaboratoryServer

/// The body's deadline on an embedded channel, whose time tests advance by
/// hand: a peer that is late is refused, a server that holds reads back is not.
@Suite struct RequestBoundsHandlerTests {
    private static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        // Bytes are asked for only when a test says (`read()`): the server's
        // channel asks as its handler takes what came before, and holds back
        // while the handler is busy.
        try channel.setOption(.autoRead, value: false).wait()
        try channel.pipeline.syncOperations.addHandler(
            RequestBoundsHandler(maximumBodyBytes: 1 << 20, bodyDeadline: .seconds(30))
        )
        return channel
    }

    private static let post = HTTPRequestPart.head(
        HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/api/eval/key")
    )

    private static func status(_ channel: EmbeddedChannel) throws -> HTTPResponse.Status? {
        guard case .head(let response)? = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
        return response.status
    }

    @Test func aBodyThePeerDoesNotSendByItsDeadlineIsRefused() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.post)
        channel.read()  // the server waits for the body
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(try Self.status(channel) == nil)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(try Self.status(channel) == .requestTimeout)
    }

    @Test func aBodyTheServerHoldsBackIsNotThePeersDelay() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.post)
        // No read asked for: the handler is busy (or starved of a thread), and
        // the body waits in the socket's buffer. Twice the deadline passes.
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(try Self.status(channel) == nil)
        channel.read()
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "[]")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(try Self.status(channel) == nil)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.post)
    }

    @Test func aRefusedPeerIsReadForItsLingeringThenClosed() throws {
        let channel = try Self.channel()
        let closes = CloseRecorder()
        try channel.pipeline.syncOperations.addHandler(closes, position: .first)
        var oversized = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/events/key")
        oversized.headerFields[.contentLength] = String(2 << 20)
        try channel.writeInbound(HTTPRequestPart.head(oversized))
        #expect(try Self.status(channel) == .contentTooLarge)
        #expect(closes.modes == [.output])  // the answer's end goes, and the peer reads it
        // The body keeps coming and is dropped; the connection stays open for it.
        for _ in 0..<3 { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x20, count: 1 << 20))) }
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(closes.modes == [.output])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(closes.modes == [.output, .all])
    }

    @Test func aDeadlineStartsAgainWhenTheServerAsksForTheBody() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.post)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))  // held back: started again
        channel.read()  // now the peer is awaited
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(try Self.status(channel) == nil)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(try Self.status(channel) == .requestTimeout)
    }
}

/// Records each close the handlers ask for; a close of the output alone
/// stops here, as an embedded channel can only close whole.
private final class CloseRecorder: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private(set) var modes: [CloseMode] = []

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        modes.append(mode)
        guard mode != .output else {
            promise?.succeed(())
            return
        }
        context.close(mode: mode, promise: promise)
    }
}
