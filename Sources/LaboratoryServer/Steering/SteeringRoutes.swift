import Foundation
import GrowthBook
import Hummingbird
import Laboratory
import LaboratoryRuntime
import LaboratorySQLite
import NIOCore

/// The steering API: what `lab force`, `lab console` and `lab events` do,
/// as JSON over HTTP under ``prefix``, for testers on other machines, with
/// one server-sent change stream so no client polls. Every endpoint passes
/// the ``SteeringGate`` first; changes are recorded as its tester's.
extension LabServer {
    /// Every steering path starts with it; a new version gets a new prefix.
    package static let steeringPrefix = "/api/steering/v1"

    func addSteering(to router: Router<ServerRequestContext>) {
        let hub = hub
        let group = router.group(RouterPath(Self.steeringPrefix))
        group.get("experiments") { request, _ in
            await steer(request) { _, _ in
                let laboratory = hub.laboratory
                return try ExperimentsDocument(
                    debug: hub.steering.debug,
                    snapshot: try laboratory.manager.refresh(),
                    token: laboratory.device.token
                )
            }
        }
        group.get("snapshot") { request, _ in
            let parameters = request.uri.queryParameters
            let given = parameters.get("for").map { [$0] } ?? []
            let limit = min(max(parameters.get("events").flatMap(Int.init) ?? 500, 0), 10_000)
            return await steer(request) { _, _ in
                let laboratory = hub.laboratory
                return try SteeringSnapshot.read(
                    manager: laboratory.manager,
                    debug: hub.steering.debug,
                    store: laboratory.store,
                    log: laboratory.store,
                    eventLimit: limit,
                    scope: try Scope(parsing: given)
                )
            }
        }
        group.get("explain/:experiment") { request, context in
            // Routing leaves a parameter as sent: GrowthBook rule experiments have spaces and colons.
            let sent = context.parameters.get("experiment") ?? ""
            let experiment = sent.removingPercentEncoding ?? sent
            let source = request.uri.queryParameters.get("source")
            let given = request.uri.queryParameters.get("for").map { [$0] } ?? []
            return await steer(request) { _, _ in
                try hub.explanation(of: experiment, in: source, for: try Scope(parsing: given))
            }
        }
        group.post("force") { request, _ in
            await steer(request, readingBody: true) { tester, body in
                let force = try Self.decode(SteeringDocuments.Force.self, body)
                return try hub.steering.force(
                    force.variant,
                    of: force.experiment,
                    in: force.source,
                    scope: try Scope(validating: force.scope ?? [:]),
                    tester: tester
                )
            }
        }
        group.post("unforce") { request, _ in
            await steer(request, readingBody: true) { _, body in
                let unforce = try Self.decode(SteeringDocuments.Unforce.self, body)
                return try hub.steering.unforce(
                    unforce.experiment,
                    in: unforce.source,
                    scope: try Scope(validating: unforce.scope ?? [:])
                )
            }
        }
        group.post("reset") { request, _ in
            await steer(request, readingBody: true) { _, body in
                let reset = try Self.decode(SteeringDocuments.Reset.self, body)
                return try hub.steering.reset(
                    source: reset.source,
                    scope: try reset.scope.map { try Scope(validating: $0) }
                )
            }
        }
        group.get("overrides") { request, _ in
            await steer(request) { _, _ in try hub.steering.exportOverrides() }
        }
        group.post("overrides") { request, _ in
            let replacing = request.uri.queryParameters.get("replace") == "true"
            return await steer(request, readingBody: true) { tester, body in
                let file = try OverridesFile(decoding: Data(buffer: body), file: "the posted overrides")
                return try hub.steering.importOverrides(
                    file,
                    replacing: replacing,
                    tester: tester,
                    from: "the posted file"
                )
            }
        }
        group.get("events") { request, _ in
            let parameters = request.uri.queryParameters
            let limit = min(max(parameters.get("limit").flatMap(Int.init) ?? 100, 1), 10_000)
            let after = parameters.get("after").flatMap(Int64.init)
            let query = EventQuery(
                reasons: parameters.getAll("reason").map { EventReason(rawValue: String($0)) },
                experiments: parameters.getAll("experiment").map { String($0) }
            )
            return await steer(request) { _, _ in
                let store = hub.laboratory.store
                let rows =
                    after == nil
                    ? try store.latestEvents(matching: query, limit: limit)
                    : try store.events(matching: query, after: after, limit: limit)
                return SteeringDocuments.Events(events: rows.map(EventReport.init))
            }
        }
        group.get("attributes") { request, _ in
            await steer(request) { _, _ in
                SteeringDocuments.Attributes(
                    device: hub.steering.debug.deviceAttributes,
                    stored: try hub.laboratory.store.storedAttributes(),
                    list: try hub.steering.debug.attributeList()
                )
            }
        }
        group.post("attributes") { request, _ in
            await steer(request, readingBody: true) { _, body in
                let change = try Self.decode(SteeringDocuments.SetAttribute.self, body)
                return try hub.steering.setAttribute(change.name, to: change.value)
            }
        }
        group.get("changes") { request, context in
            if case .refused(let status, let message) = admit(request) {
                return Self.steeringJSON(SteeringDocuments.Failure(error: message), status: status)
            }
            return stream(
                request,
                context,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                messages: hub.subscribeToChanges(),
                first: { ByteBuffer(string: "event: hello\ndata: {}\n\n") },
                change: { event, _ in event }
            )
        }
    }

    /// Whether the gate lets a request steer, and as whom.
    private func admit(_ request: Request) -> SteeringGate.Decision {
        steeringGate.decide(request.headers, authority: request.head.authority)
    }

    /// Runs `work` for a tester the gate admits, on the steering queue, and
    /// answers its document. The gate comes first: a refused request's body
    /// is never read.
    /// - Parameter readingBody: whether `work` gets the request's body (up to the limit).
    private func steer(
        _ request: Request,
        readingBody: Bool = false,
        _ work: @escaping @Sendable (_ tester: String, _ body: ByteBuffer) throws -> some Encodable & Sendable
    ) async -> Response {
        let tester: String
        switch admit(request) {
        case .refused(let status, let message):
            return Self.steeringJSON(SteeringDocuments.Failure(error: message), status: status)
        case .allowed(let allowed):
            // Without a token (loopback only) the one person is this machine's user.
            tester = allowed ?? LocalTester.name
        }
        var body = ByteBuffer()
        if readingBody {
            var request = request
            do {
                body = try await Self.collect(&request, upTo: limits.maximumBodyBytes)
            } catch {
                return Self.steeringFailure(error)
            }
        }
        do {
            return Self.steeringJSON(try await hub.steeringQueue.perform { [body] in try work(tester, body) })
        } catch {
            return Self.steeringFailure(error)
        }
    }

    /// A request's body as the JSON document `type`.
    static func decode<T: Decodable>(_ type: T.Type, _ body: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch {
            throw SteeringRequestError("the body is not the JSON this endpoint takes: \(error)")
        }
    }

    /// The gate every steering request passes.
    var steeringGate: SteeringGate {
        SteeringGate(
            tokens: tokens,
            clientKeys: clientKeys,
            loopbackOnly: ["127.0.0.1", "::1", "localhost"].contains(host),
            access: access
        )
    }

    /// A refusal, with the status its kind of error deserves.
    static func steeringFailure(_ error: any Error) -> Response {
        let status: HTTPResponse.Status
        switch error {
        case let error as DebugSourceError:
            switch error {
            case .ambiguous: status = .conflict
            default: status = .notFound
            }
        case is ScopeError, is SteeringRequestError, is OverridesFile.Invalid, is DeviceAttribute.Invalid:
            status = .badRequest
        case is OverridesError: status = .unprocessableContent
        case let error as HTTPError: status = error.status
        case is StateFileQueue.Full: status = .serviceUnavailable
        case let error as SQLiteStoreError: status = error.isTransient ? .serviceUnavailable : .internalServerError
        default: status = .internalServerError
        }
        let message = (error as? HTTPError)?.body ?? String(describing: error)
        return steeringJSON(SteeringDocuments.Failure(error: message), status: status)
    }

    /// JSON with times as ISO 8601, as `lab … --json` writes them.
    static func steeringJSON(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = Timestamp.encodingStrategy
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// A steering request the API could not read.
struct SteeringRequestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ServedStateHub {
    /// Why a user of `scope` gets what they get for one experiment: this
    /// server's device decides the rest, the scope which forced variant applies.
    func explanation(of name: String, in source: String?, for scope: Scope) throws -> Explanation {
        let debug = steering.debug
        var attributes = debug.deviceAttributes
        attributes.merge(scope.attributes) { _, given in given }
        var (explanation, scoped) = try debug.explanation(
            of: name,
            in: source,
            snapshot: try laboratory.manager.refresh(),
            device: laboratory.device,
            for: attributes
        )
        guard !scope.isEveryone, scoped.forcedVariant != scoped.forcedVariant(for: debug.deviceAttributes) else {
            return explanation
        }
        // The device's result is not the scope's: say what a user of the scope gets.
        let effective = scoped.effective
        explanation.variant = effective?.variant.name
        explanation.assignments = effective?.assignments ?? []
        let result =
            effective.map { active in
                "a user with \(scope) gets \(active.variant.name): "
                    + active.assignments.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
            } ?? "a user with \(scope) gets the baseline, \(scoped.experiment.baseline)"
        explanation.steps.removeAll { $0.label == "result" }
        explanation.steps.append(Explanation.Step(label: "result", detail: result))
        return explanation
    }
}
