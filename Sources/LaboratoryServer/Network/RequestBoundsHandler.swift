import Foundation
import GrowthBook
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers what a request's head promises before the router sees its body.
///
/// - `Expect: 100-continue` gets `100 Continue` when the body may come (a
///   client such as curl otherwise waits a second before each large post),
///   and any other expectation `417`;
/// - a `Content-Length` over the cap gets `413` at once, and so does a
///   chunked body when it passes the cap, and the server's side of the
///   connection is closed, so a client that waits for the answer learns at
///   once instead of waiting for its timeout. The server then reads and
///   drops what the peer still sends, for at most ``lingering``, before it
///   closes the connection whole: closed with the body unread, the
///   connection was reset by the peer's next bytes, and a client that sends
///   its whole body before it reads (Python's `urllib`) failed its send and
///   never read the answer;
/// - a transfer coding other than `chunked` (`gzip, chunked`) gets `501`:
///   reading such a body as plain would store compressed bytes as JSON;
/// - a body not complete within the deadline of its head gets `408` and the
///   connection is closed: a peer that trickles a byte at a time would
///   otherwise keep the connection busy (and never shed) for ever, as each
///   byte restarts the idle timeout. Only a peer that is late is refused:
///   when the deadline passes while the server has not asked for more of the
///   body (its handler, busy or starved of a thread, holds reads back), the
///   wait is the server's, and the deadline starts again.
final class RequestBoundsHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let maximumBodyBytes: Int
    private let bodyDeadline: Duration
    /// How long a refused peer's bytes are read and dropped, at most, after
    /// the answer: enough for a body on a LAN, short of the idle timeout.
    private let lingering: Duration
    /// Closes a refused connection whole when its ``lingering`` is over.
    private var lingerWatchdog: Scheduled<Void>?
    private var bodyBytes = 0
    /// Closes the connection if the current request's body is not in by its deadline.
    private var bodyWatchdog: Scheduled<Void>?
    /// The channel asked for more bytes and none came since: what is missing
    /// is the peer's to send, not the server's to read.
    private var awaitingPeer = false
    /// A request was refused: the rest of what the peer sends is dropped until the connection closes.
    private var refused = false
    /// The router began an answer to the current request.
    private var answering = false

    init(maximumBodyBytes: Int, bodyDeadline: Duration, lingering: Duration = .seconds(5)) {
        self.maximumBodyBytes = maximumBodyBytes
        self.bodyDeadline = bodyDeadline
        self.lingering = lingering
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        bodyWatchdog?.cancel()
        lingerWatchdog?.cancel()
    }

    func read(context: ChannelHandlerContext) {
        awaitingPeer = true
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        awaitingPeer = false
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            bodyBytes = 0
            if let coding = request.headerFields[.transferEncoding],
                coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
            {
                return refuse(
                    .notImplemented,
                    "Transfer-Encoding \(coding) is not supported: send the body plain or chunked",
                    context
                )
            }
            if let length = request.headerFields[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
                return refuse(.contentTooLarge, Self.tooLarge(maximumBodyBytes), context)
            }
            if let expectation = request.headerFields[.expect] {
                guard expectation.lowercased() == "100-continue" else {
                    return refuse(.expectationFailed, "only Expect: 100-continue is understood", context)
                }
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            watchBody(context)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            if bodyBytes > maximumBodyBytes {
                return refuse(.contentTooLarge, Self.tooLarge(maximumBodyBytes), context)
            }
        case .end:
            bodyWatchdog?.cancel()
            bodyWatchdog = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response) where response.status.kind != .informational: answering = true
        case .end: answering = false
        default: break
        }
        context.write(data, promise: promise)
    }

    /// Refuses the request when its body is not in by the deadline and the
    /// server is waiting on the peer; starts the deadline again otherwise.
    private func watchBody(_ context: ChannelHandlerContext) {
        bodyWatchdog = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(bodyDeadline)) {
            guard self.awaitingPeer else { return self.watchBody(context) }
            self.refuse(.requestTimeout, "the request's body did not arrive in time", context)
        }
    }

    static func tooLarge(_ limit: Int) -> String {
        limit >= 1 << 20 ? "the body is larger than \(limit >> 20) MiB" : "the body is larger than \(limit) bytes"
    }

    /// Answers `status` unless an answer is under way, then closes.
    private func refuse(_ status: HTTPResponse.Status, _ message: String, _ context: ChannelHandlerContext) {
        refused = true
        bodyWatchdog?.cancel()
        guard !answering else {
            context.close(promise: nil)
            return
        }
        let body = ByteBuffer(string: JSONValue.object([.init("error", .string(message))]).jsonText)
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        response.headerFields[.contentLength] = String(body.readableBytes)
        response.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        linger(context)
    }

    /// Closes the server's side (the peer reads the answer, then the end),
    /// reads on and drops what comes until the peer closes or ``lingering``
    /// is over, then closes the connection whole.
    private func linger(_ context: ChannelHandlerContext) {
        let channel = context.channel
        lingerWatchdog = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(lingering)) {
            channel.close(promise: nil)
        }
        let closedOutput = context.eventLoop.makePromise(of: Void.self)
        closedOutput.futureResult.whenFailure { _ in channel.close(promise: nil) }  // a channel that cannot half-close
        context.close(mode: .output, promise: closedOutput)
        context.read()
    }
}
