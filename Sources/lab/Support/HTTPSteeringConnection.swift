import Foundation
import GrowthBookNetwork
import Laboratory
import LaboratoryConsole
import LaboratoryServer

/// The steering API of a `lab serve`, over HTTP: what `--connect` works through.
struct HTTPSteeringConnection: SteeringConnection {
    let base: URL
    let token: String?
    /// How long one request may take before it counts as a lost connection.
    var timeout: TimeInterval = 10

    var address: String { base.absoluteString }

    /// The server refused, or could not be reached: its words, or why.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The HTTP status, when the server answered.
        var status: Int?
    }

    func snapshot(scope: Scope, events: Int) throws -> SteeringSnapshot {
        var query = ["events=\(events)"]
        if !scope.isEveryone { query.append("for=" + Self.escaped(scope.description)) }
        return try decode(SteeringSnapshot.self, try send("snapshot?" + query.joined(separator: "&")))
    }

    func experiments() throws -> ExperimentsDocument {
        try decode(ExperimentsDocument.self, try send("experiments"))
    }

    func explanation(of experiment: String, in source: String?, scope: Scope) throws -> Explanation {
        var query: [String] = []
        if let source { query.append("source=" + Self.escaped(source)) }
        if !scope.isEveryone { query.append("for=" + Self.escaped(scope.description)) }
        let path = "explain/" + Self.escaped(experiment) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try decode(Explanation.self, try send(path))
    }

    /// Events, newest first; after an id, oldest first.
    func events(query: EventQuery, after id: Int64?, limit: Int) throws -> [EventReport] {
        var parts = ["limit=\(limit)"]
        if let id { parts.append("after=\(id)") }
        parts += query.reasons.map { "reason=" + Self.escaped($0.rawValue) }
        parts += query.experiments.map { "experiment=" + Self.escaped($0) }
        struct Events: Decodable { var events: [EventReport] }
        return try decode(Events.self, try send("events?" + parts.joined(separator: "&"))).events
    }

    func force(_ variant: String, of experiment: String, in source: String?, scope: Scope) throws -> Steering.Outcome {
        try change(
            "force",
            SteeringDocuments.Force(experiment: experiment, variant: variant, source: source, scope: scope.given)
        )
    }

    func unforce(_ experiment: String, in source: String?, scope: Scope) throws -> Steering.Outcome {
        try change("unforce", SteeringDocuments.Unforce(experiment: experiment, source: source, scope: scope.given))
    }

    func reset(source: String?, scope: Scope?) throws -> Steering.Outcome {
        try change("reset", SteeringDocuments.Reset(source: source, scope: scope?.given))
    }

    func setAttribute(_ name: String, to value: String?) throws -> Steering.Outcome {
        try change("attributes", SteeringDocuments.SetAttribute(name: name, value: value))
    }

    func exportOverrides() throws -> OverridesFile {
        let data = try send("overrides")
        do {
            return try OverridesFile(decoding: data, file: base.absoluteString)
        } catch {
            throw Failure(description: "the server's overrides did not read: \(error)")
        }
    }

    func importOverrides(_ data: Data, replacing: Bool) throws -> Steering.Outcome {
        try decode(
            Steering.Outcome.self,
            try send("overrides" + (replacing ? "?replace=true" : ""), posting: data)
        )
    }

    /// The URL of the change stream, and the headers it needs.
    var changes: (url: URL, headers: [(String, String)]) {
        (url(for: "changes"), token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    // MARK: - HTTP

    /// Posts one of the documents the server reads, and reads its outcome.
    private func change(_ path: String, _ document: some Encodable) throws -> Steering.Outcome {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try decode(Steering.Outcome.self, try send(path, posting: try encoder.encode(document)))
    }

    private func url(for path: String) -> URL {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return URL(string: root + LabServer.steeringPrefix + "/" + path)!
    }

    private static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = Timestamp.decodingStrategy
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw Failure(description: "\(base.absoluteString) answered something this lab does not read: \(error)")
        }
    }

    /// One request, waited for: the console and the commands call from
    /// threads of their own. A `POST` of `body` when there is one, else a `GET`.
    private func send(_ path: String, posting body: Data? = nil) throws -> Data {
        var headers = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let exchange = HTTPExchange(
            body == nil ? .GET : .POST,
            url(for: path),
            headers: headers,
            body: body,
            idleTimeout: timeout,
            requestTimeout: 6 * timeout,
            // A snapshot or the overrides of tens of thousands of experiments.
            maximumBytes: 256 << 20
        )
        let response: HTTPExchange.Response
        do {
            response = try exchange.waitForResponse()
        } catch {
            throw Failure(description: "no answer from \(base.absoluteString): \(error)")
        }
        guard (200..<300).contains(response.status) else {
            let said =
                (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
            throw Failure(
                description: said ?? "\(base.absoluteString) answered \(response.status)",
                status: response.status
            )
        }
        return response.body
    }
}

extension Scope {
    /// As a steering request names it: absent for everyone.
    fileprivate var given: [String: String]? { isEveryone ? nil : attributes }
}
