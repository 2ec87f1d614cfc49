import Foundation
import LabDrivers
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratoryServer

/// The steering API as testers meet it: who may steer, what each endpoint
/// answers (walked from `share/openapi/steering-v1.json`, so the file and
/// the server cannot drift), and the change stream.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SteeringAPITests {
    typealias Served = LabServerTests.Served

    /// The demo catalog, whose names the file's examples use.
    static var demo: String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../share/laboratory/demo.json"
        ).standardized.path
        return String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    static let tokens = SteeringTokens(testers: ["ana-token-0123456789": "ana", "bo-token-0123456789ab": "bo"])

    /// The OpenAPI file, as JSON.
    static var openAPI: [String: Any] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../share/openapi/steering-v1.json"
        ).standardized.path
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// One operation of the file: its method, path with examples filled in, and example body.
    struct Operation: CustomStringConvertible {
        var method: String
        var path: String
        var body: Data?
        var documented: [String: Any]
        /// Requests the file says to make first, so the example has something to act on.
        var before: [(path: String, body: Data)]
        var streams: Bool

        var description: String { "\(method) \(path)" }
    }

    static var operations: [Operation] {
        let paths = openAPI["paths"] as? [String: [String: Any]] ?? [:]
        var operations: [Operation] = []
        for (template, methods) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, value) in methods.sorted(by: { $0.key < $1.key }) {
                let operation = value as? [String: Any] ?? [:]
                var path = template
                var query: [String] = []
                for parameter in operation["parameters"] as? [[String: Any]] ?? [] {
                    guard let name = parameter["name"] as? String, let example = parameter["example"] else { continue }
                    let text = "\(example)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    if parameter["in"] as? String == "path" {
                        path = path.replacingOccurrences(of: "{\(name)}", with: text)
                    } else {
                        query.append("\(name)=\(text)")
                    }
                }
                if !query.isEmpty { path += "?" + query.joined(separator: "&") }
                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let example = (content?["application/json"] as? [String: Any])?["example"]
                let before = (operation["x-before"] as? [[String: Any]] ?? []).map {
                    (
                        $0["path"] as? String ?? "",
                        (try? JSONSerialization.data(withJSONObject: $0["body"] ?? [:])) ?? Data()
                    )
                }
                let responses = operation["responses"] as? [String: Any] ?? [:]
                let okContent = (responses["200"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
                operations.append(
                    Operation(
                        method: method.uppercased(),
                        path: path,
                        body: example.flatMap { try? JSONSerialization.data(withJSONObject: $0) },
                        documented: responses,
                        before: before,
                        streams: okContent["text/event-stream"] != nil
                    )
                )
            }
        }
        return operations
    }

    /// The schema a `$ref` names.
    static func schema(_ reference: String) -> [String: Any] {
        let name = reference.split(separator: "/").last.map(String.init) ?? ""
        let components = openAPI["components"] as? [String: Any]
        return (components?["schemas"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    /// Sends `operation` with `credential` as `Authorization: Bearer`.
    static func send(
        _ operation: Operation,
        credential: String?,
        origin: String? = nil,
        on served: Served
    ) -> LoopbackConnection.Answer {
        let connection = try! LoopbackConnection(port: served.port)
        defer { connection.close() }
        var head = "\(operation.streams ? "HEAD" : operation.method) \(operation.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let credential { head += "Authorization: Bearer \(credential)\r\n" }
        if let origin { head += "Origin: \(origin)\r\n" }
        let body = operation.body ?? Data()
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        connection.send(head + String(decoding: body, as: UTF8.self))
        return connection.answer(toHead: operation.streams)
    }

    @Test func theFileDescribesEveryEndpointTheServerHas() {
        let described = Set(Self.operations.map { "\($0.method) \($0.path.split(separator: "?")[0])" })
        #expect(Self.operations.count == 12)
        for expected in [
            "GET /api/steering/v1/experiments", "POST /api/steering/v1/force", "POST /api/steering/v1/unforce",
            "POST /api/steering/v1/reset", "GET /api/steering/v1/overrides", "POST /api/steering/v1/overrides",
            "GET /api/steering/v1/events", "GET /api/steering/v1/attributes", "POST /api/steering/v1/attributes",
            "GET /api/steering/v1/changes",
        ] {
            #expect(described.contains(expected), "\(expected)")
        }
    }

    /// The "Done when" table: every steering endpoint × {no key, wrong key, SDK key, steering token}.
    @Test func everyEndpointWantsATestersToken() async throws {
        let served = try await Served(clientKeys: ["sdk-good"], tokens: Self.tokens, catalog: Self.demo)
        defer { served.stop() }
        for operation in Self.operations {
            for (credential, expected) in [
                (nil, 401), ("wrong-token-0123456789", 401), ("sdk-good", 403), ("ana-token-0123456789", 200),
            ] as [(String?, Int)] {
                for before in operation.before {
                    var prior = operation
                    (prior.method, prior.path, prior.body, prior.streams) = ("POST", before.path, before.body, false)
                    _ = Self.send(prior, credential: "ana-token-0123456789", on: served)
                }
                let answer = Self.send(operation, credential: credential, on: served)
                #expect(answer.status == expected, "\(operation) with \(credential ?? "nothing"): \(answer.head)")
                #expect(
                    operation.documented[String(answer.status)] != nil,
                    "\(operation): \(answer.status) undocumented"
                )
            }
        }
        // A web page of a foreign origin may not steer, token or not.
        let force = try #require(Self.operations.first { $0.path.hasSuffix("/force") })
        let foreign = Self.send(force, credential: "ana-token-0123456789", origin: "http://evil.example", on: served)
        #expect(foreign.status == 403)
    }

    @Test func everyEndpointAnswersTheDocumentTheFileDescribes() async throws {
        let served = try await Served(tokens: Self.tokens, catalog: Self.demo)
        defer { served.stop() }
        for operation in Self.operations where !operation.streams {
            for before in operation.before {
                _ = try await served.request(before.path, method: "POST", body: before.body, headers: Self.bo)
            }
            let answer = try await served.request(
                operation.path,
                method: operation.method,
                body: operation.body,
                headers: Self.bo
            )
            #expect(answer.status == 200, "\(operation): \(String(decoding: answer.body, as: UTF8.self))")
            let ok = operation.documented["200"] as? [String: Any]
            let content = (ok?["content"] as? [String: Any])?["application/json"] as? [String: Any]
            let reference = (content?["schema"] as? [String: Any])?["$ref"] as? String ?? ""
            let document = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] ?? [:]
            for member in Self.schema(reference)["required"] as? [String] ?? [] {
                #expect(document[member] != nil, "\(operation): no \"\(member)\" in \(document.keys.sorted())")
            }
        }
    }

    static let bo = ["Authorization": "Bearer bo-token-0123456789ab"]

    @Test func aForceIsRecordedAsItsTesterAndReachesTheChangeStream() async throws {
        let served = try await Served(tokens: Self.tokens, catalog: Self.demo)
        defer { served.stop() }
        let stream = try LoopbackConnection(port: served.port)
        defer { stream.close() }
        stream.send(
            "GET /api/steering/v1/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ana-token-0123456789\r\n\r\n"
        )
        #expect(stream.read(until: "event: hello"))
        let outcome = try await served.json(
            "/api/steering/v1/force",
            body: #"{"experiment": "ButtonColor", "variant": "ButtonColorBlue", "scope": {"id": "qa-phone-7"}}"#,
            headers: Self.bo
        )
        #expect(outcome["message"] as? String == "Forced ButtonColor to ButtonColorBlue for id=qa-phone-7.")
        #expect(stream.read(until: "event: state"))
        let experiments = try await served.json("/api/steering/v1/experiments", headers: Self.bo)
        let button = (experiments["experiments"] as? [[String: Any]])?.first { $0["name"] as? String == "ButtonColor" }
        let forced = (button?["forcedVariants"] as? [[String: Any]])?.first
        #expect(forced?["tester"] as? String == "bo")
        #expect(forced?["scope"] as? [String: String] == ["id": "qa-phone-7"])
        // Explained for the scope: which forced variant, set by whom.
        let explanation = try await served.json(
            "/api/steering/v1/explain/ButtonColor?for=id%3Dqa-phone-7",
            headers: Self.bo
        )
        let details = (explanation["steps"] as? [[String: String]])?.map { $0["detail"] ?? "" } ?? []
        #expect(
            details.contains("forced to ButtonColorBlue through the debug source, for id=qa-phone-7, set by bo"),
            "\(details)"
        )
        #expect(explanation["variant"] as? String == "ButtonColorBlue")
    }

    /// The gate answers before the body is read: a peer without a token
    /// that announces a body and never sends it holds nothing open.
    @Test func aRefusedRequestsBodyIsNeverWaitedFor() async throws {
        let served = try await Served(tokens: Self.tokens, catalog: Self.demo)
        defer { served.stop() }
        let connection = try LoopbackConnection(port: served.port)
        defer { connection.close() }
        connection.send(
            "POST /api/steering/v1/force HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 500\r\n\r\n"
        )
        // Bounded only to prove it answers; the body would have been waited for up to 30 s.
        let answer = connection.answer()
        #expect(answer.status == 401, "\(answer.head)")
    }

    @Test func withoutTokensOnlyALoopbackServerMaySteer() {
        let access = AccessPolicy(listening: "0.0.0.0", interfaces: [], hostName: "lab", extraHosts: [], origins: [])
        let open = SteeringGate(tokens: nil, clientKeys: [], loopbackOnly: false, access: access)
        #expect(open.decide([:], authority: "lab") != .allowed(tester: nil))
        let local = SteeringGate(tokens: nil, clientKeys: [], loopbackOnly: true, access: access)
        #expect(local.decide([:], authority: "127.0.0.1") == .allowed(tester: nil))
    }

    @Test func aTokensFileWithAMistakeSaysWhere() {
        let text = """
            {"ana": "ana-token-0123456789",
             "bo": "short"}
            """
        #expect(
            throws: SteeringTokens.Invalid(
                file: "t.json",
                position: .init(line: 2, column: 8),
                message:
                    "the token of \"bo\" must be at least 16 characters without spaces (openssl rand -hex 16 makes one)"
            )
        ) { try SteeringTokens(decoding: Data(text.utf8), file: "t.json") }
    }
}
