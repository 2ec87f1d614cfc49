import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/1.1 request and its whole answer, over SwiftNIO (TLS for
/// `https`), within bounds: an idle timeout while connecting and between
/// bytes, a deadline for the whole exchange however slowly bytes arrive, a
/// cap on the body checked as it streams in, and a few redirects that keep
/// their scheme (or go from `http` to `https`).
///
/// On SwiftNIO rather than URLSession because `FoundationNetworking` brings
/// libcurl and 30 shared libraries into every process that links it, whether
/// it fetches or not: 6 MB and 6 ms per `lab` command. The body is always
/// asked for and taken uncompressed, so no small compressed body can inflate
/// past the cap.
package struct HTTPExchange: Sendable {
    /// The method, `GET` or `POST`.
    package var method: HTTPMethod
    package var url: URL
    /// Headers beyond `Host`, `Accept-Encoding`, `Content-Length` and `Connection`, which the exchange sets.
    package var headers: [(String, String)]
    /// What a `POST` sends.
    package var body: Data?
    /// How long a connection may wait for bytes.
    package var idleTimeout: TimeInterval
    /// How long the whole exchange, redirects included, may take.
    package var requestTimeout: TimeInterval
    /// The largest body taken.
    package var maximumBytes: Int
    /// Redirects followed at most.
    package var maximumRedirects: Int
    /// TLS for `https` when not the system's trust roots.
    package var tls: TLSConfiguration?

    /// The answer: its status, headers and body.
    package struct Response: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: Data
    }

    /// Why an exchange gave no answer, in words for a status line.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    package init(
        _ method: HTTPMethod = .GET,
        _ url: URL,
        headers: [(String, String)] = [],
        body: Data? = nil,
        idleTimeout: TimeInterval,
        requestTimeout: TimeInterval,
        maximumBytes: Int,
        maximumRedirects: Int = 5,
        tls: TLSConfiguration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.tls = tls
    }

    /// The answer; cancelling the task closes the connection.
    package func response() async throws -> Response {
        let run = start()
        return try await withTaskCancellationHandler {
            try await run.result.get()
        } onCancel: {
            run.finish(.failure(CancellationError()))
        }
    }

    /// The answer, waited for on the calling thread, which must not be one
    /// of SwiftNIO's (the console and the commands call from threads of
    /// their own).
    package func waitForResponse() throws -> Response {
        try start().result.wait()
    }

    private func start() -> ExchangeRun {
        let run = ExchangeRun(self, on: HTTPEndpoint.group.next())
        run.begin()
        return run
    }
}

/// One exchange under way: its attempts (one per redirect), the connection
/// of the current one, and the deadline over all of them.
private final class ExchangeRun: Sendable {
    let exchange: HTTPExchange
    let loop: any EventLoop
    private let promise: EventLoopPromise<HTTPExchange.Response>
    var result: EventLoopFuture<HTTPExchange.Response> { promise.futureResult }

    private struct State {
        /// Which attempt is current: an answer from an earlier one is ignored.
        var attempt = 0
        var channel: (any Channel)?
        var deadline: Scheduled<Void>?
        var finished = false
    }
    private let state = Mutex(State())

    init(_ exchange: HTTPExchange, on loop: any EventLoop) {
        self.exchange = exchange
        self.loop = loop
        promise = loop.makePromise()
    }

    func begin() {
        let seconds = exchange.requestTimeout
        let deadline = loop.scheduleTask(in: Self.amount(seconds)) { [self] in
            finish(failure: "the server took longer than \(String(format: "%g", seconds)) s to answer")
        }
        // Nobody else holds the run yet: it cannot have finished.
        state.withLock { $0.deadline = deadline }
        attempt(exchange.url, number: 0)
    }

    /// Ends the exchange once: later calls (a late answer, the deadline after
    /// the answer) do nothing.
    func finish(_ result: Result<HTTPExchange.Response, any Error>) {
        let ending = state.withLock { state -> (channel: (any Channel)?, deadline: Scheduled<Void>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            return (state.channel, state.deadline)
        }
        guard let ending else { return }
        ending.deadline?.cancel()
        ending.channel?.close(promise: nil)
        promise.completeWith(result)
    }

    private func finish(failure: String) {
        finish(.failure(HTTPExchange.Failure(description: failure)))
    }

    private func attempt(_ url: URL, number: Int) {
        let endpoint: HTTPEndpoint
        do {
            endpoint = try HTTPEndpoint(url, tls: exchange.tls)
        } catch {
            return finish(failure: String(describing: error))
        }
        let idle = Self.amount(exchange.idleTimeout)
        let maximumBytes = exchange.maximumBytes
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(idle)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    // First, so that bytes of a TLS handshake count as bytes.
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
                    try endpoint.addClientHandlers(to: channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ResponseCollector(maximumBytes: maximumBytes) { [self] result in
                            answered(result, url: url, number: number)
                        }
                    )
                }
            }
        endpoint.connect(with: bootstrap).whenComplete { [self] connected in
            switch connected {
            case .failure(let error):
                answered(.failure(error), url: url, number: number)
            case .success(let channel):
                let current = state.withLock { state in
                    guard !state.finished, state.attempt == number else { return false }
                    state.channel = channel
                    return true
                }
                guard current else { return channel.close(promise: nil) }
                send(on: channel, to: endpoint)
            }
        }
    }

    private func send(on channel: any Channel, to endpoint: HTTPEndpoint) {
        var headers = exchange.headers
        headers.append(("Accept-Encoding", "identity"))
        headers.append(("Connection", "close"))
        if let body = exchange.body { headers.append(("Content-Length", String(body.count))) }
        channel.write(HTTPClientRequestPart.head(endpoint.head(exchange.method, headers: headers)), promise: nil)
        if let body = exchange.body {
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    /// An attempt's answer: a redirect starts the next attempt, anything else ends the exchange.
    private func answered(_ result: Result<HTTPExchange.Response, any Error>, url: URL, number: Int) {
        let current = state.withLock { $0.attempt == number && !$0.finished }
        guard current else { return }
        switch result {
        case .failure(let error):
            finish(failure: Self.describe(error))
        case .success(let response):
            guard (300..<400).contains(response.status), response.status != 304,
                let location = response.headers.first(name: "Location")
            else { return finish(.success(response)) }
            let from = url.scheme?.lowercased() ?? ""
            let next = URL(string: location, relativeTo: url)?.absoluteURL
            let to = next?.scheme?.lowercased() ?? ""
            guard number < exchange.maximumRedirects else {
                return finish(failure: "more than \(exchange.maximumRedirects) redirects")
            }
            guard let next, HTTPEndpoint.allowsRedirect(from: from, to: to) else {
                return finish(failure: "a redirect from \(from) to \(to.isEmpty ? "no scheme" : to) was refused")
            }
            let previous = state.withLock { state -> (any Channel)? in
                guard !state.finished else { return nil }
                state.attempt = number + 1
                defer { state.channel = nil }
                return state.channel
            }
            previous?.close(promise: nil)
            attempt(next, number: number + 1)
        }
    }

    /// Seconds as SwiftNIO counts them, within what it can count: a timeout
    /// of `.infinity` (or NaN, or less than nothing) must not trap.
    static func amount(_ seconds: TimeInterval) -> TimeAmount {
        // A hundred years is as good as never, and leaves room to add it to now.
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 3.15e9)
        return .nanoseconds(Int64(bounded * 1e9))
    }

    /// A failure in words for a status line.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as HTTPExchange.Failure:
            return failure.description
        case let unsupported as HTTPEndpoint.Unsupported:
            return unsupported.description
        case is CancellationError:
            return "cancelled"
        case let connection as NIOConnectionError:
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return "cannot find the host \(connection.host)"
            }
            let reasons = Set(connection.connectionErrors.map { describe($0.error) })
            return reasons.count == 1 ? reasons.first! : "cannot reach the server"
        case ChannelError.connectTimeout(_):
            // Not the words of a read that timed out: a server that takes no
            // connections is not one that stopped in the middle of an answer.
            return "the server did not accept the connection in time"
        case let io as IOError:
            return "cannot reach the server (\(String(cString: strerror(io.errnoCode)).lowercased()))"
        case is NIOSSLError, is BoringSSLError:
            return "the TLS connection failed (certificate or protocol): \(error)"
        case is HTTPParserError:
            return "the server's answer is not HTTP"
        default:
            return "a network error (\(error))"
        }
    }
}

/// Gathers one answer, refusing it once it passes the cap, comes
/// compressed, or stops arriving.
private final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let maximumBytes: Int
    private let completion: (Result<HTTPExchange.Response, any Error>) -> Void
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(maximumBytes: Int, completion: @escaping (Result<HTTPExchange.Response, any Error>) -> Void) {
        self.maximumBytes = maximumBytes
        self.completion = completion
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // A `100 Continue` comes before the answer.
            guard head.status.code >= 200 || head.status.code == 101 else { return }
            let encoding = head.headers.first(name: "Content-Encoding")?.lowercased() ?? ""
            if !encoding.isEmpty, encoding != "identity" {
                return fail(context, "the server sent a \(encoding) body though none was asked for")
            }
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > maximumBytes {
                return fail(context, tooLarge)
            }
            self.head = head
        case .body(var part):
            guard part.readableBytes <= maximumBytes - body.readableBytes else { return fail(context, tooLarge) }
            body.writeBuffer(&part)
        case .end:
            guard let head else { return fail(context, "the server's answer is not HTTP") }
            let response = HTTPExchange.Response(
                status: Int(head.status.code),
                headers: head.headers,
                body: Data(body.readableBytesView)
            )
            end(context, .success(response))
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case IdleStateHandler.IdleStateEvent.read = event {
            fail(context, "the server did not answer in time")
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The parser's word for a body cut short.
        if case HTTPParserError.invalidEOFState = error, head != nil {
            return fail(context, "the connection closed before the answer was complete")
        }
        end(context, .failure(error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(
            context,
            head == nil
                ? "the server closed the connection without answering"
                : "the connection closed before the answer was complete"
        )
    }

    private var tooLarge: String {
        let cap = maximumBytes >= 1 << 20 ? "\(maximumBytes >> 20) MiB" : "\(maximumBytes) bytes"
        return "the answer is larger than \(cap)"
    }

    private func fail(_ context: ChannelHandlerContext, _ description: String) {
        end(context, .failure(HTTPExchange.Failure(description: description)))
    }

    /// Hands on the one outcome of the connection, and closes it.
    private func end(_ context: ChannelHandlerContext, _ outcome: Result<HTTPExchange.Response, any Error>) {
        guard !done else { return }
        done = true
        completion(outcome)
        context.close(promise: nil)
    }
}
