import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

@testable import LaboratoryServer

/// Sends a request through the server's router and middleware, with no socket: what a request gets,
/// where streams, connections and limits are not the point.
///
/// HummingbirdTesting does the same, but with it every build compiles an HTTP client with HTTP/2,
/// SOCKS and compression (AsyncHTTPClient) that nothing else here uses.
struct RouterDriver: Sendable {
    /// The server's routes and middleware, built once.
    let responder: RouterResponder<ServerRequestContext>
    let logger: Logger

    init(_ server: LabServer) {
        responder = server.router().buildResponder()
        var logger = Logger(label: "laboratory.server.test")
        logger.logLevel = .critical
        self.logger = logger
    }

    /// The response to one request; an error that reaches the top answers 500, as the application does
    /// on a socket (the router has already answered errors that carry a status).
    func send(
        _ path: String,
        method: HTTPRequest.Method,
        headers: HTTPFields,
        body: ByteBuffer?
    ) async throws -> (head: HTTPResponse, body: ByteBuffer) {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(
                method: method,
                scheme: "http",
                authority: "localhost",
                path: path,
                headerFields: headers
            ),
            body: RequestBody(buffer: body ?? ByteBuffer())
        )
        // The context reads the channel's addresses, which an embedded channel has none of;
        // event streams write to the channel, so their tests go through a socket.
        let context = ServerRequestContext(source: .init(channel: EmbeddedChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collected = CollectedBody()
        try await response.body.write(CollectingWriter(into: collected))
        return (response.head, collected.bytes.withLock { $0 })
    }
}

/// Where ``CollectingWriter`` puts what it is given: the writer itself is consumed by the body it writes.
private final class CollectedBody: Sendable {
    let bytes = Mutex(ByteBuffer())
}

/// A response body writer that keeps every byte.
private struct CollectingWriter: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        into.bytes.withLock { _ = $0.writeImmutableBuffer(buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
