import Foundation
import GrowthBook
import Hummingbird
import HummingbirdCore
import Laboratory
import Logging
import NIOCore

/// `lab serve`: the state file as the endpoints that GrowthBook SDKs and
/// OpenFeature OFREP providers read, so an app in any language shows what
/// the console shows and changes within a second when QA forces a variant.
///
/// - `GET /api/features/{clientKey}`: the SDK payload, with `ETag`,
///   `If-None-Match` → 304, CORS and `x-sse-support: enabled`;
/// - `POST /api/eval/{clientKey}`: GrowthBook's remote evaluation, the payload
///   evaluated for the user the SDK sends (``RemoteEvaluation``);
/// - `GET /sub/{clientKey}`: server-sent `features` events on every change, pings every 20 s;
/// - `POST /ofrep/v1/evaluate/flags/{key}` and `POST /ofrep/v1/evaluate/flags`,
///   whose answers name `GET /ofrep/v1/events`, OFREP's event stream; the
///   key comes in `Authorization: Bearer …` or `X-API-Key`, as OFREP says;
/// - `POST /events/{clientKey}`: exposures back into the event table;
/// - `GET /demo?key=…`: the demo's subscribe screen as a web page, when given one.
///
/// Every `GET` answers `HEAD` too. The server is meant for a LAN: with client
/// keys every endpoint needs one, `Host` must name the server, pages from
/// other origins may read but not write, and ``ServerLimits`` bounds what
/// any one peer costs.
package struct LabServer: Sendable {
    package var host: String
    package var port: Int
    /// Client keys that may read and report; empty lets any key through.
    package var clientKeys: Set<String>
    /// Gets one line per request when set (`--verbose`).
    package var log: (@Sendable (String) -> Void)?
    /// The page `GET /demo` serves (HTML), if any.
    package var demoPage: Data?
    /// Which hosts and origins may reach the server.
    package var access: AccessPolicy
    /// The testers who may steer, by token (`--tokens`); `nil` lets only a
    /// loopback server steer without one.
    package var tokens: SteeringTokens?
    package var limits: ServerLimits
    /// Gets a line for each failure a client cannot be told of in full (a write that failed).
    package var report: @Sendable (String) -> Void
    let hub: ServedStateHub

    package init(
        hub: ServedStateHub,
        host: String = "127.0.0.1",
        port: Int = 3100,
        clientKeys: Set<String> = [],
        log: (@Sendable (String) -> Void)? = nil,
        demoPage: Data? = nil,
        access: AccessPolicy? = nil,
        tokens: SteeringTokens? = nil,
        limits: ServerLimits = ServerLimits(),
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.hub = hub
        self.demoPage = demoPage
        self.host = host
        self.port = port
        self.clientKeys = clientKeys
        self.log = log
        self.access = access ?? Self.access(listening: host)
        self.tokens = tokens
        self.limits = limits
        self.report = report
    }

    /// What a server listening on `host` answers to: its own address, and
    /// on every interface, each interface's address and the machine's name.
    package static func access(listening host: String, hosts: [String] = [], origins: [String] = []) -> AccessPolicy {
        AccessPolicy(
            listening: host,
            interfaces: MachineAddresses.interfaces(),
            hostName: MachineAddresses.hostName(),
            extraHosts: hosts,
            origins: origins
        )
    }

    /// Serves until the task is cancelled; `onRunning` gets the port bound
    /// (useful with port 0). Keeps the served state current meanwhile.
    package func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = application(onRunning: onRunning)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await hub.watch() }
            group.addTask {
                try await app.run()
                throw CancellationError()  // the server stopped: stop watching too
            }
        }
    }

    /// The application ``run(onRunning:)`` serves: the routes, and the
    /// channel handlers and limits that bound connections. Tests of what a
    /// request gets drive its router without a socket.
    func application(
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<ServerRequestContext>> {
        var logger = Logger(label: "laboratory.server")
        logger.logLevel = .critical  // lab prints its own lines
        let registry = ConnectionRegistry(threshold: limits.sheddingThreshold)
        let maximumBodyBytes = limits.maximumBodyBytes
        let idleTimeout = limits.idleTimeout
        let bodyDeadline = limits.bodyDeadline
        let stalledPeerLimit = limits.stalledPeerLimit
        return Application(
            router: router(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        RequestBoundsHandler(maximumBodyBytes: maximumBodyBytes, bodyDeadline: bodyDeadline),
                        IdleConnectionShedder(registry: registry),
                        StalledPeerReset(limit: stalledPeerLimit),
                    ],
                    idleTimeout: TimeAmount(idleTimeout)
                )
            ),
            configuration: .init(
                address: .hostname(host, port: port),
                serverName: "Laboratory",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections)
            ),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: HostCheck(access: access))
        router.add(
            middleware: CORSMiddleware(
                allowOrigin: .all,
                allowHeaders: [.accept, .contentType, .ifNoneMatch, .origin, .cacheControl, .authorization, .apiKey],
                allowMethods: [.get, .post, .options],
                exposedHeaders: ["ETag", "x-sse-support"]
            )
        )
        router.add(middleware: RequestNoter(hub: hub, log: log))
        router.get("/demo") { [demoPage] request, _ in
            try authorize(key: request.uri.queryParameters.get("key"))
            guard let demoPage else { throw HTTPError(.notFound, message: "this server has no demo page") }
            return Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: demoPage))
            )
        }
        router.get("/api/features/:clientKey") { request, context in
            try authorize(key: context.parameters.get("clientKey"))
            let state = hub.current
            var headers: HTTPFields = [.eTag: state.payloadTag, .cacheControl: "no-cache", .sseSupport: "enabled"]
            if request.headers[.ifNoneMatch] == state.payloadTag {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: state.payloadBuffer))
        }
        let remote = RemoteEvaluationCache()
        let maximumBodyBytes = limits.maximumBodyBytes
        router.post("/api/eval/:clientKey") { request, context in
            try authorize(key: context.parameters.get("clientKey"))
            var request = request
            let body = try await Self.collect(&request, upTo: maximumBodyBytes)
            let asked: RemoteEvaluation.Request
            do {
                asked = try RemoteEvaluation.Request(body: Array(buffer: body))
            } catch let invalid as RemoteEvaluation.Request.Invalid {
                throw HTTPError(.badRequest, message: "a remote evaluation request: \(invalid.reason)")
            }
            let state = hub.current
            let answer = RemoteEvaluation.answer(
                asked,
                payload: try remote.payload(of: state),
                dateUpdated: .string(state.dateUpdated)
            )
            // Answers differ by user: nothing in between may keep one for another.
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store", .sseSupport: "enabled"],
                body: .init(byteBuffer: ByteBuffer(string: answer.jsonText))
            )
        }
        router.get("/sub/:clientKey") { request, context in
            try authorize(key: context.parameters.get("clientKey"))
            // Subscribed before the current payload is read: a change in between is sent, not lost.
            return stream(
                request,
                context,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .sseSupport: "enabled"],
                first: { hub.current.featuresEvent },
                change: { featuresEvent, _ in featuresEvent }
            )
        }
        router.post("/ofrep/v1/evaluate/flags/:key") { request, context in
            let key = context.parameters.get("key") ?? ""
            if let refused = refuseOFREP(request, key: key) { return refused }
            let evaluationContext: JSONValue?
            switch try await ofrepContext(of: request) {
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
            if let refused = refuseOFREP(request, key: nil) { return refused }
            let evaluationContext: JSONValue?
            switch try await ofrepContext(of: request) {
            case .failure(let failure): return failure.response(key: nil)
            case .success(let found): evaluationContext = found
            }
            let state = hub.current
            // Answers differ by context, so the tag does too.
            let tag =
                ServedState.attributes(of: evaluationContext).map {
                    ServedState.tag(state.flagsTag + $0.jsonText)
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
        router.get(RouterPath(Self.ofrepEventsPath)) { request, context in
            if let refused = refuseOFREP(request, key: nil) { return refused }
            // OFREP's event stream (ADR-0008): a `refetchEvaluation` message on every change.
            return stream(
                request,
                context,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                change: { _, number in Self.refetchEvent(number: number, tag: hub.current.flagsTag) }
            )
        }
        let intake = EventIntake(
            hub: hub,
            access: access,
            limiter: EventRateLimiter(rate: limits.eventsPerSecond, burst: limits.eventBurst),
            writer: StateFileQueue(label: "event-writes", capacity: limits.pendingWrites),
            maximumBodyBytes: limits.maximumBodyBytes,
            report: report
        )
        router.post("/events/:clientKey") { request, context in
            try authorize(key: context.parameters.get("clientKey"))
            return try await intake.take(request, context: context)
        }
        addSteering(to: router)
        return router
    }

    /// A server-sent event stream: `first()` as it opens, if given, then
    /// `change(featuresEvent, number)` for the newest change each time one
    /// comes (1, 2, …), and a comment every ping. Each write must go out
    /// within the stream deadline or the connection is closed. `HEAD` gets
    /// the headers alone, and subscribes to nothing.
    func stream(
        _ request: Request,
        _ context: ServerRequestContext,
        headers: HTTPFields,
        messages subscribe: @autoclosure () -> StreamFanOut.Subscription? = nil,
        first: () -> ByteBuffer? = { nil },
        change: @escaping @Sendable (ByteBuffer, Int) -> ByteBuffer
    ) -> Response {
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        let subscription = subscribe() ?? hub.subscribe()
        let opening = first()
        let (channel, deadline) = (context.channel, limits.streamWriteDeadline)
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                // A client that leaves is noticed as it closes its side, not at the next
                // write (a ping, 20 s on): the stream ends, and the open streams' count with it.
                let departure = ClientDepartureHandler(subscription.end)
                try await channel.pipeline.addHandler(departure, position: .first).get()
                defer { channel.pipeline.removeHandler(departure, promise: nil) }
                if let opening { try await writer.write(opening, closing: channel, after: deadline) }
                var number = 0
                for await message in subscription.messages {
                    switch message {
                    case .payload(let featuresEvent):
                        number += 1
                        try await writer.write(change(featuresEvent, number), closing: channel, after: deadline)
                    case .ping: try await writer.write(Self.ping, closing: channel, after: deadline)
                    }
                }
                try await writer.finish(nil)
            }
        )
    }

    /// Refuses a client key that is not one of `--client-key`, as GrowthBook's proxy does.
    private func authorize(key: String?) throws {
        guard !clientKeys.isEmpty else { return }
        guard let key, clientKeys.contains(key) else {
            throw HTTPError(
                .unauthorized,
                message: key.map { "unknown client key \"\($0)\"" } ?? "a client key is required"
            )
        }
    }

    /// OFREP's answer to a request without a valid key (`Authorization:
    /// Bearer …` or `X-API-Key`), in OFREP's error shape; `nil` lets it through.
    private func refuseOFREP(_ request: Request, key: String?) -> Response? {
        guard !clientKeys.isEmpty else { return nil }
        guard let given = RequestCredential.of(request.headers), clientKeys.contains(given) else {
            let details =
                request.headers[.authorization] == nil && request.headers[.apiKey] == nil
                ? "send the client key as Authorization: Bearer <key> or X-API-Key"
                : "unknown client key"
            return Self.json(
                OFREPDocuments.Failure(errorCode: "GENERAL", errorDetails: details, key: key),
                status: .unauthorized
            )
        }
        return nil
    }

    private static let ping = ByteBuffer(string: ": ping\n\n")

    /// Where OFREP providers listen for changes; bulk answers name it in `eventStreams`.
    static let ofrepEventsPath = "/ofrep/v1/events"

    private static func refetchEvent(number: Int, tag: String) -> ByteBuffer {
        let data = JSONValue.object([
            .init("type", .string("refetchEvaluation")), .init("etag", .string(tag)),
            .init("lastModified", .number(Date().timeIntervalSince1970.rounded(.down))),
        ])
        return ByteBuffer(string: "event: message\nid: \(number)\ndata: \(data.jsonText)\n\n")
    }

    /// The body, or 413 past the limit.
    static func collect(_ request: inout Request, upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: RequestBoundsHandler.tooLarge(limit))
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
    private func ofrepContext(of request: Request) async throws -> Result<JSONValue?, OFREPFailure> {
        var request = request
        let body = try await Self.collect(&request, upTo: limits.maximumBodyBytes)
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
    /// OFREP's other way to send the client key.
    static let apiKey = Self("x-api-key")!
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
