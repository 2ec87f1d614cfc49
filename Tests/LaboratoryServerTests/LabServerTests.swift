import Foundation
import GrowthBookNetwork
import HTTPTypes
import Hummingbird
import LabDrivers
import LabTestSupport
import Laboratory
import LaboratoryRuntime
import LaboratoryTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import LaboratoryServer

/// The server on 127.0.0.1 over a real state file, asked the way SDKs and
/// OFREP providers ask; a second `LocalLaboratory` on the same file plays
/// the console in another process.
@Suite struct LabServerTests {
    static let catalog = """
        {"source": "Local", "experiments": [
          {"name": "ButtonColor", "keys": ["buttonColor"], "baseline": "Red", "variants": [
            {"name": "Red", "assignments": {"buttonColor": "red"}},
            {"name": "Blue", "assignments": {"buttonColor": "blue"}}]}]}
        """

    /// A served state file and a running server; `stop()` ends both.
    final class Served: Sendable {
        /// The state file and catalog, removed when the last reference goes.
        let scratch: TemporaryFolder
        var folder: String { scratch.path }
        let base: URL
        let port: Int
        let hub: ServedStateHub
        let task: Task<Void, any Error>?
        /// The server's router, driven without a socket, when no socket is opened.
        let router: RouterDriver?

        /// How requests reach the server.
        enum Transport {
            /// A real server on a loopback port: streams, connections, limits.
            case socket
            /// The router alone, no socket: what a request gets.
            case router
        }

        /// - Parameter growthBook: an upstream GrowthBook payload beside the catalog.
        init(
            clientKeys: Set<String> = [],
            growthBook: String? = nil,
            limits: ServerLimits = ServerLimits(),
            access: AccessPolicy? = nil,
            tokens: SteeringTokens? = nil,
            catalog: String = LabServerTests.catalog,
            transport: Transport = .socket
        ) async throws {
            scratch = try TemporaryFolder("lab-serve")
            let folder = scratch.path
            try Data(catalog.utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
            let laboratory = try Self.laboratory(folder, growthBook: growthBook, catalog: catalog)
            let hub = try ServedStateHub(laboratory: laboratory)
            self.hub = hub
            let server = LabServer(
                hub: hub,
                host: "127.0.0.1",
                port: 0,
                clientKeys: clientKeys,
                demoPage: Data("<html>demo</html>".utf8),
                access: access,
                tokens: tokens,
                limits: limits
            )
            guard transport == .socket else {
                router = RouterDriver(server)
                task = nil
                port = 0
                base = URL(string: "http://localhost")!
                return
            }
            router = nil
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            task = Task(executorPreference: QueueExecutor()) {
                try await server.run { port in continuation.yield(port) }
            }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            self.port = port
            base = URL(string: "http://127.0.0.1:\(port)")!
        }

        static func laboratory(
            _ folder: String,
            growthBook: String? = nil,
            catalog text: String = LabServerTests.catalog
        ) throws -> LocalLaboratory {
            let catalog = try CatalogDecoder().decode(Data(text.utf8), file: "c.json")
            var accepted: (any Error)?
            let laboratory = try LocalLaboratory(
                catalogs: [(path: folder + "/c.json", catalog: catalog)],
                statePath: folder + "/state.sqlite",
                debugSource: true,
                random: SeededRandomSource(seed: 3),
                remotes: { store, device in
                    guard let growthBook else { return [] }
                    let source = GrowthBookSource(
                        store: store,
                        device: device,
                        fetcher: PlainPayloadFetcher(InMemoryFetcher())
                    )
                    do { try source.accept(Data(growthBook.utf8)) } catch { accepted = error }
                    return [source]
                }
            )
            if let accepted { throw accepted }
            return laboratory
        }

        /// A GrowthBook client's stream of `/sub/…`, its payloads logged; cancel the task to stop.
        func listen() -> (PayloadLog, Task<Void, Never>) {
            let payloads = PayloadLog()
            let streamer = GrowthBookStreamer(url: base.appendingPathComponent("sub/key"), initialBackoff: 0.05)
            let stream = Task(executorPreference: QueueExecutor()) {
                await streamer.run(payload: { payloads.append($0) }, refetch: {})
            }
            return (payloads, stream)
        }

        /// The console in another process: its own laboratory on the same file.
        func console() throws -> LocalLaboratory { try Self.laboratory(folder) }

        func stop() { task?.cancel() }

        func request(
            _ path: String,
            method: String = "GET",
            body: Data? = nil,
            headers: [String: String] = [:]
        ) async throws -> (status: Int, headers: [String: String], body: Data) {
            if let router {
                var fields = HTTPFields()
                if body != nil { fields[.contentType] = "application/json" }
                for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
                let method = HTTPRequest.Method(method)!
                let path = path.hasPrefix("/") ? path : "/" + path
                let answer = try await router.send(
                    path,
                    method: method,
                    headers: fields,
                    body: body.map(ByteBuffer.init)
                )
                var named: [String: String] = [:]
                for field in answer.head.headerFields { named[field.name.canonicalName] = field.value }
                return (Int(answer.head.status.code), named, Data(answer.body.readableBytesView))
            }
            // A path with a query is taken as written; appending would escape its `?`.
            let url = path.contains("?") ? URL(string: base.absoluteString + path)! : base.appendingPathComponent(path)
            // Apps post JSON; a test that wants another type says so.
            var fields = headers.map { ($0.key, $0.value) }
            if body != nil, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                fields.append(("Content-Type", "application/json"))
            }
            // Over SwiftNIO, a connection per request, not URLSession: on Linux its
            // shared session took a minute or more to answer, in CI runs, here and in
            // the console's end-to-end test, where the route waits on nothing (and a
            // 10 s wait here for a force ran out once); every request in these tests
            // is bounded by the exchange's own timeouts instead, and a late one fails
            // saying so.
            let answer = try await HTTPExchange(
                HTTPMethod(rawValue: method),
                url,
                headers: fields,
                body: body,
                idleTimeout: 30,
                requestTimeout: 60,
                maximumBytes: 64 << 20
            ).response()
            var named: [String: String] = [:]
            for field in answer.headers { named[field.name.lowercased()] = field.value }
            return (answer.status, named, answer.body)
        }

        func json(_ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> [String: Any] {
            let answer = try await request(
                path,
                method: body == nil ? "GET" : "POST",
                body: body.map { Data($0.utf8) },
                headers: headers
            )
            return try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] ?? [:]
        }
    }

    @Test func thePayloadHasAnETagCORSAndStreamingSupport() async throws {
        let served = try await Served(transport: .router)
        defer { served.stop() }
        let first = try await served.request("api/features/key", headers: ["Origin": "http://example.test"])
        #expect(first.status == 200)
        #expect(first.headers["x-sse-support"] == "enabled")
        #expect(first.headers["access-control-allow-origin"] == "*")
        let tag = try #require(first.headers["etag"])
        let again = try await served.request("api/features/key", headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        let payload = try JSONSerialization.jsonObject(with: first.body) as? [String: Any]
        #expect((payload?["features"] as? [String: Any])?["buttonColor"] != nil)
    }

    @Test func aForceInAnotherProcessReachesAnOpenStreamByItself() async throws {
        let served = try await Served()
        defer { served.stop() }
        let (payloads, stream) = served.listen()
        defer { stream.cancel() }
        #expect(await payloads.wait { _ in true })  // the payload as the stream opens
        let drawn = try await served.json("ofrep/v1/evaluate/flags/buttonColor", body: "{}")["variant"] as? String
        let (other, weights) = drawn == "Blue" ? ("Red", "[1,0]") : ("Blue", "[0,1]")
        let console = try served.console()
        try #require(console.debug).force(variant: other, of: "ButtonColor")
        // Nothing but the hub's watch of the state sends a stream a payload
        // after the first (a ping is a comment), so its coming proves the
        // watch; how soon is `lab-bench server`'s to measure, not a test's.
        #expect(await payloads.wait { String(decoding: $0, as: UTF8.self).contains("\"weights\":\(weights)") })
        let flag = try await served.json("ofrep/v1/evaluate/flags/buttonColor", body: "{}")
        #expect(flag["variant"] as? String == other)
        #expect(flag["reason"] as? String == "STATIC")
        #expect((flag["metadata"] as? [String: Any])?["forced"] as? Bool == true)
    }

    @Test func anEditedCatalogReachesAnOpenStream() async throws {
        let served = try await Served()
        defer { served.stop() }
        let (payloads, stream) = served.listen()
        defer { stream.cancel() }
        #expect(await payloads.wait { _ in true })
        let edited = Self.catalog.replacingOccurrences(of: #""buttonColor": "blue""#, with: #""buttonColor": "navy""#)
        try Data(edited.utf8).write(to: URL(fileURLWithPath: served.folder + "/c.json"), options: .atomic)
        #expect(await payloads.wait { String(decoding: $0, as: UTF8.self).contains("navy") })
    }

    @Test func ofrepProvidersAreToldToRefetchOnTheEventStreamBulkAnswersName() async throws {
        let served = try await Served()
        defer { served.stop() }
        let bulk = try await served.json("ofrep/v1/evaluate/flags", body: "{}")
        let streams = try #require(bulk["eventStreams"] as? [[String: Any]])
        #expect(streams.first?["type"] as? String == "sse")
        let path = try #require((streams.first?["endpoint"] as? [String: Any])?["requestUri"] as? String)
        let listener = try LoopbackConnection(port: served.port)
        defer { listener.close() }
        listener.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        #expect(listener.read(until: "text/event-stream"))
        // Subscribed once the head arrived: a force from another process now makes an event.
        try #require(try served.console().debug).force(variant: "Blue", of: "ButtonColor")
        #expect(listener.read(until: "event: message\nid: 1\ndata: {\"type\":\"refetchEvaluation\",\"etag\":"))
        #expect(listener.read(until: "\"lastModified\":"))
    }

    @Test func ofrepAnswersEachKeyAndRefusesBadBodies() async throws {
        let served = try await Served(transport: .router)
        defer { served.stop() }
        let flag = try await served.json(
            "ofrep/v1/evaluate/flags/buttonColor",
            body: #"{"context": {"targetingKey": "u1"}}"#
        )
        #expect(["red", "blue"].contains(flag["value"] as? String ?? ""))
        #expect(flag["reason"] as? String == "SPLIT")
        #expect((flag["metadata"] as? [String: Any])?["experiment"] as? String == "ButtonColor")
        #expect((flag["metadata"] as? [String: Any])?["forced"] as? Bool == false)
        for (body, status, code) in [
            ("{nope", 400, "PARSE_ERROR"), ("[1]", 400, "PARSE_ERROR"), (#"{"context": 3}"#, 400, "INVALID_CONTEXT"),
        ] {
            let answer = try await served.request(
                "ofrep/v1/evaluate/flags/buttonColor",
                method: "POST",
                body: Data(body.utf8)
            )
            #expect(answer.status == status, "\(body)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains(code), "\(body)")
        }
        let unknown = try await served.request("ofrep/v1/evaluate/flags/nothing", method: "POST", body: Data("{}".utf8))
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("FLAG_NOT_FOUND"))
        let empty = try await served.request("ofrep/v1/evaluate/flags/buttonColor", method: "POST", body: Data())
        #expect(empty.status == 200)
        let bulk = try await served.request("ofrep/v1/evaluate/flags", method: "POST", body: Data("{}".utf8))
        #expect(bulk.status == 200)
        let tag = try #require(bulk.headers["etag"])
        let unchanged = try await served.request(
            "ofrep/v1/evaluate/flags",
            method: "POST",
            body: Data("{}".utf8),
            headers: ["If-None-Match": tag]
        )
        #expect(unchanged.status == 304)
    }

    @Test func ofrepEvaluatesAContextAgainstUpstreamRulesAndTagsBulkAnswersByIt() async throws {
        let served = try await Served(
            growthBook:
                #"{"features": {"headline": {"defaultValue": "Hello", "rules": [{"force": "Hoi", "condition": {"country": "NL"}}]}}}"#,
            transport: .router
        )
        defer { served.stop() }
        let path = "ofrep/v1/evaluate/flags/headline"
        let dutch = try await served.json(path, body: #"{"context": {"targetingKey": "u1", "country": "NL"}}"#)
        #expect(dutch["value"] as? String == "Hoi" && dutch["reason"] as? String == "TARGETING_MATCH")
        #expect((dutch["metadata"] as? [String: Any])?["source"] as? String == "GrowthBook")
        let other = try await served.json(path, body: #"{"context": {"targetingKey": "u2", "country": "BE"}}"#)
        #expect(other["value"] as? String == "Hello" && other["reason"] as? String == "DEFAULT")
        #expect((other["metadata"] as? [String: Any])?["experiment"] == nil)
        // Bulk answers differ by context, and so do their tags.
        let bulk = "ofrep/v1/evaluate/flags"
        let nl = #"{"context": {"targetingKey": "u1", "country": "NL"}}"#
        let first = try await served.request(bulk, method: "POST", body: Data(nl.utf8))
        let plain = try await served.request(bulk, method: "POST", body: Data("{}".utf8))
        let tag = try #require(first.headers["etag"])
        #expect(tag != plain.headers["etag"])
        #expect(String(decoding: first.body, as: UTF8.self).contains(#""value":"Hoi""#))
        let again = try await served.request(bulk, method: "POST", body: Data(nl.utf8), headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        let elsewhere = try await served.request(
            bulk,
            method: "POST",
            body: Data(#"{"context": {"targetingKey": "u1", "country": "DE"}}"#.utf8),
            headers: ["If-None-Match": tag]
        )
        #expect(elsewhere.status == 200)
        // The payload passes the rule through, condition and all.
        let payload = try await served.json("api/features/key")
        let headline = (payload["features"] as? [String: Any])?["headline"] as? [String: Any]
        #expect(
            ((headline?["rules"] as? [[String: Any]])?.first?["condition"] as? [String: String]) == ["country": "NL"]
        )
    }

    @Test func exposuresAreRecordedOnceAndBadOnesNotAtAll() async throws {
        let served = try await Served(transport: .router)
        defer { served.stop() }
        let store = try served.console().store
        let before = try store.latestEvents(limit: 100).count
        let good = #"[{"experiment": "ButtonColor", "variant": "Blue"}, {"experiment": "ButtonColor", "variant": "1"}]"#
        let answer = try await served.json("events/key", body: good)
        #expect(answer["recorded"] as? Int == 1)  // the same variant twice: displayed once
        let bad = [
            #"[{"experiment": "ButtonColor", "variant": "Red"}, {"experiment": "Nope", "variant": "X"}]"#,
            #"[{"experiment": "ButtonColor", "variant": "Red", "value": {"a": 1}}]"#,
            #"{"experiment": "ButtonColor"}"#, "not json",
        ]
        for body in bad {
            let refused = try await served.request("events/key", method: "POST", body: Data(body.utf8))
            #expect(refused.status == 400, "\(body)")
        }
        let huge = try await served.request("events/key", method: "POST", body: Data(count: 2 << 20))
        #expect(huge.status == 413)
        let rows = try store.latestEvents(limit: 100)
        #expect(rows.count == before + 1)
        #expect(rows.first?.event.reason == .displayed && rows.first?.event.variant == "Blue")
        #expect(rows.first?.event.forced == false)
        // Once QA forces the experiment, what apps report of it is marked forced.
        try #require(try served.console().debug).force(variant: "Red", of: "ButtonColor")
        try served.hub.rebuild()
        let forced = try await served.json("events/key", body: #"[{"experiment": "ButtonColor", "variant": "Red"}]"#)
        #expect(forced["recorded"] as? Int == 1)
        #expect(try store.latestEvents(limit: 1).first?.event.forced == true)
    }

    @Test func anUnknownClientKeyIsRefused() async throws {
        let served = try await Served(clientKeys: ["sdk-good"], transport: .router)
        defer { served.stop() }
        #expect(try await served.request("api/features/sdk-good").status == 200)
        #expect(try await served.request("api/features/sdk-bad").status == 401)
        #expect(try await served.request("events/sdk-bad", method: "POST", body: Data("[]".utf8)).status == 401)
    }
}

/// Payloads a stream delivered, waited for without sleeping a fixed time.
final class PayloadLog: Sendable {
    private let payloads = Mutex<[Data]>([])

    func append(_ payload: Data) {
        payloads.withLock { $0.append(payload) }
    }

    /// Waits (up to 20 s) for a payload that satisfies `predicate`; looks
    /// once more after the deadline, as a busy machine may wake the test late.
    func wait(_ predicate: (Data) -> Bool) async -> Bool {
        await Poll.until(seconds: 20) { payloads.withLock { $0.contains(where: predicate) } }
    }
}
