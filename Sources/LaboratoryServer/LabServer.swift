import Foundation
import GrowthBook
import Hummingbird
import Laboratory
import Logging
import NIOCore

/// `lab serve`: the state file as the endpoints that GrowthBook SDKs and
/// OpenFeature OFREP providers read, so an app in any language shows what
/// the console shows and changes within a second when QA forces a variant.
///
/// - `GET /api/features/{clientKey}`: the SDK payload, with `ETag`,
///   `If-None-Match` → 304, CORS and `x-sse-support: enabled`;
/// - `GET /sub/{clientKey}`: server-sent `features` events on every change, pings every 20 s;
/// - `POST /ofrep/v1/evaluate/flags/{key}` and `POST /ofrep/v1/evaluate/flags`,
///   whose answers name `GET /ofrep/v1/events`, OFREP's event stream;
/// - `POST /events/{clientKey}`: exposures back into the event table;
/// - `GET /demo`: the demo's subscribe screen as a web page, when given one.
public struct LabServer: Sendable {
    public var host: String
    public var port: Int
    /// Client keys that may read and report; empty lets any key through.
    public var clientKeys: Set<String>
    /// Gets one line per request when set (`--verbose`).
    public var log: (@Sendable (String) -> Void)?
    /// The page `GET /demo` serves (HTML), if any.
    public var demoPage: Data?
    let hub: ServedStateHub

    /// The largest body a request may carry.
    public static let maximumBodyBytes = 1 << 20

    public init(
        hub: ServedStateHub,
        host: String = "127.0.0.1",
        port: Int = 3100,
        clientKeys: Set<String> = [],
        log: (@Sendable (String) -> Void)? = nil,
        demoPage: Data? = nil
    ) {
        self.hub = hub
        self.demoPage = demoPage
        self.host = host
        self.port = port
        self.clientKeys = clientKeys
        self.log = log
    }

    /// Serves until the task is cancelled; `onRunning` gets the port bound
    /// (useful with port 0). Keeps the served state current meanwhile.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "laboratory.server")
        logger.logLevel = .critical  // lab prints its own lines
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "Laboratory"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await hub.watch() }
            group.addTask {
                try await app.run()
                throw CancellationError()  // the server stopped: stop watching too
            }
        }
    }

    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(
            middleware: CORSMiddleware(
                allowOrigin: .all,
                allowHeaders: [.accept, .contentType, .ifNoneMatch, .origin, .cacheControl],
                allowMethods: [.get, .post, .options],
                exposedHeaders: ["ETag", "x-sse-support"]
            )
        )
        router.add(middleware: RequestNoter(hub: hub, log: log))
        router.get("/demo") { [demoPage] _, _ in
            guard let demoPage else { throw HTTPError(.notFound, message: "this server has no demo page") }
            return Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: demoPage))
            )
        }
        router.get("/api/features/:clientKey") { request, context in
            try authorize(context)
            let state = hub.current
            var headers: HTTPFields = [.eTag: state.payloadTag, .cacheControl: "no-cache", .sseSupport: "enabled"]
            if request.headers[.ifNoneMatch] == state.payloadTag {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: state.payload)))
        }
        router.get("/sub/:clientKey") { _, context in
            try authorize(context)
            // Subscribed before the current payload is read: a change in between is sent, not lost.
            let messages = hub.subscribe()
            let first = hub.current.payload
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .sseSupport: "enabled"],
                body: ResponseBody { writer in
                    try await writer.write(Self.event(first))
                    for await message in messages {
                        switch message {
                        case .payload(let payload): try await writer.write(Self.event(payload))
                        case .ping: try await writer.write(ByteBuffer(string: ": ping\n\n"))
                        }
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.post("/ofrep/v1/evaluate/flags/:key") { request, context in
            let key = context.parameters.get("key") ?? ""
            let evaluationContext: JSONValue?
            switch try await Self.ofrepContext(of: request) {
            case .failure(let failure): return failure.response(key: key)
            case .success(let found): evaluationContext = found
            }
            guard let flag = hub.current.flag(key, context: evaluationContext) else {
                return Self.json(
                    OFREPDocuments.Failure(
                        errorCode: "FLAG_NOT_FOUND",
                        errorDetails: "no experiment assigns \(key)",
                        key: key
                    ),
                    status: .notFound
                )
            }
            return Self.json(OFREPDocuments.Evaluation(flag))
        }
        router.post("/ofrep/v1/evaluate/flags") { request, _ in
            let evaluationContext: JSONValue?
            switch try await Self.ofrepContext(of: request) {
            case .failure(let failure): return failure.response(key: nil)
            case .success(let found): evaluationContext = found
            }
            let state = hub.current
            // Answers differ by context, so the tag does too.
            let tag =
                ServedState.attributes(of: evaluationContext).map {
                    ServedState.tag(Data((state.flagsTag + $0.jsonText).utf8))
                } ?? state.flagsTag
            if request.headers[.ifNoneMatch] == tag {
                return Response(status: .notModified, headers: [.eTag: tag])
            }
            var response = Self.json(
                OFREPDocuments.Bulk(
                    flags: state.keys.compactMap { state.flag($0, context: evaluationContext) }.map(
                        OFREPDocuments.Evaluation.init
                    ),
                    eventStreams: [.init(type: "sse", endpoint: .init(requestUri: Self.ofrepEventsPath))]
                )
            )
            response.headers[.eTag] = tag
            return response
        }
        router.get(RouterPath(Self.ofrepEventsPath)) { request, _ in
            // OFREP's event stream (ADR-0008): a `refetchEvaluation` message on every change.
            let messages = hub.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    var number = 0
                    for await message in messages {
                        switch message {
                        case .payload:
                            number += 1
                            try await writer.write(Self.refetchEvent(number: number, tag: hub.current.flagsTag))
                        case .ping: try await writer.write(ByteBuffer(string: ": ping\n\n"))
                        }
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.post("/events/:clientKey") { request, context in
            try authorize(context)
            var request = request
            let body = try await Self.collect(&request)
            do {
                let events = try PostedEvent.events(
                    in: Data(buffer: body),
                    experiments: hub.current.experiments,
                    forced: hub.current.forcedExperiments,
                    device: hub.deviceID,
                    at: Date()
                )
                let recorded = try hub.record(events)
                return Self.json(["recorded": recorded])
            } catch let error as PostedEvent.Invalid {
                return Self.json(["error": error.description], status: .badRequest)
            }
        }
        return router
    }

    /// Refuses a client key that is not one of `--client-key`, as GrowthBook's proxy does.
    private func authorize(_ context: ServerRequestContext) throws {
        guard !clientKeys.isEmpty else { return }
        let key = context.parameters.get("clientKey") ?? ""
        guard clientKeys.contains(key) else { throw HTTPError(.unauthorized, message: "unknown client key \"\(key)\"") }
    }

    /// Where OFREP providers listen for changes; bulk answers name it in `eventStreams`.
    static let ofrepEventsPath = "/ofrep/v1/events"

    private static func refetchEvent(number: Int, tag: String) -> ByteBuffer {
        let data = JSONValue.object([
            .init("type", .string("refetchEvaluation")), .init("etag", .string(tag)),
            .init("lastModified", .number(Date().timeIntervalSince1970.rounded(.down))),
        ])
        return ByteBuffer(string: "event: message\nid: \(number)\ndata: \(data.jsonText)\n\n")
    }

    private static func event(_ payload: Data) -> ByteBuffer {
        var buffer = ByteBuffer(string: "event: features\ndata: ")
        buffer.writeBytes(payload)
        buffer.writeString("\n\n")
        return buffer
    }

    /// The body, or 413 past ``maximumBodyBytes``.
    private static func collect(_ request: inout Request) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: maximumBodyBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: "the body is larger than \(maximumBodyBytes >> 20) MiB")
        }
    }

    /// Why an OFREP request body was refused.
    private struct OFREPFailure: Error {
        var code: String
        var details: String

        func response(key: String?) -> Response {
            LabServer.json(
                OFREPDocuments.Failure(errorCode: code, errorDetails: details, key: key),
                status: .badRequest
            )
        }
    }

    /// An OFREP body's `context`: the body must be a JSON object whose
    /// `context`, if any, is an object; an empty body or one without
    /// `context` is an empty context (`nil`).
    private static func ofrepContext(of request: Request) async throws -> Result<JSONValue?, OFREPFailure> {
        var request = request
        let body = try await collect(&request)
        guard body.readableBytes > 0 else { return .success(nil) }
        let root: JSONValue
        do {
            root = try JSONValue.parse(String(decoding: body.readableBytesView, as: UTF8.self))
        } catch {
            return .failure(
                OFREPFailure(
                    code: "PARSE_ERROR",
                    details: "the body is not JSON: \(error.message) at \(error.position)"
                )
            )
        }
        guard root.members != nil else {
            return .failure(OFREPFailure(code: "PARSE_ERROR", details: "the body must be a JSON object"))
        }
        guard let context = root["context"] else { return .success(nil) }
        guard context.members != nil else {
            return .failure(OFREPFailure(code: "INVALID_CONTEXT", details: "\"context\" must be an object"))
        }
        return .success(context)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

extension HTTPFields.Element.Name {
    /// GrowthBook's proxy header that tells SDKs to stream.
    static let sseSupport = Self("x-sse-support")!
}

/// Counts requests for the status line and writes `--verbose` lines.
struct RequestNoter: RouterMiddleware {
    typealias Context = ServerRequestContext
    let hub: ServedStateHub
    let log: (@Sendable (String) -> Void)?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        hub.noteRequest(from: context.client)
        do {
            let response = try await next(request, context)
            log?("\(context.client ?? "-") \(request.method) \(request.uri.path) \(response.status.code)")
            return response
        } catch let error as HTTPError {
            log?("\(context.client ?? "-") \(request.method) \(request.uri.path) \(error.status.code)")
            throw error
        }
    }
}
