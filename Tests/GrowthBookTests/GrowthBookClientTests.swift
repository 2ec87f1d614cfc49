import Foundation
import LabDrivers
import LabTestSupport
import Synchronization
import Testing

@testable import GrowthBook

/// The front door: one client, users scoped by attributes, typed reads,
/// callbacks once each, forced values, payloads swapped whole.
@Suite struct GrowthBookClientTests {
    static let payload = #"""
        {"features": {
          "title": {"defaultValue": "Hello", "rules": [{"force": "Hoi", "condition": {"country": "NL"}}]},
          "dark": {"defaultValue": false, "rules": [{"force": true, "condition": {"beta": true}}]},
          "limit": {"defaultValue": 10},
          "ratio": {"defaultValue": 0.25},
          "layout": {"defaultValue": {"columns": 3, "dense": false}},
          "cta": {"defaultValue": "Buy", "rules": [{"key": "cta-test", "variations": ["Buy", "Order", "Get"],
                   "meta": [{"key": "buy"}, {"key": "order"}, {"key": "get"}]}]}}}
        """#

    private func client(_ options: GrowthBookClient.Options = .init()) throws -> GrowthBookClient {
        try GrowthBookClient(payload: Data(Self.payload.utf8), options: options)
    }

    struct Layout: Decodable, Equatable {
        var columns: Int
        var dense: Bool
    }

    @Test func valuesAreReadAsTheirSwiftTypesWithDefaultsForAnythingElse() throws {
        let user = try client().user(["id": "u1", "country": "NL"])
        #expect(user.value(for: "title", default: "?") == "Hoi")
        #expect(user.value(for: "limit", default: 0) == 10)
        #expect(user.value(for: "ratio", default: 0.0) == 0.25)
        #expect(user.value(for: "dark", default: true) == false)
        #expect(user.value(for: "layout", default: JSONValue.null) == ["columns": 3, "dense": false])
        #expect(user.value(for: "ratio", default: 7) == 7)  // 0.25 is no Int
        #expect(user.value(for: "title", default: 1.5) == 1.5)  // a string is no Double
        #expect(user.value(for: "missing", default: "fallback") == "fallback")
        #expect(try user.value(for: "layout", as: Layout.self) == Layout(columns: 3, dense: false))
        #expect(try user.value(for: "missing", as: Layout.self) == nil)
        #expect(throws: GrowthBookError.self) { try user.value(for: "title", as: Layout.self) }
        #expect(!user.isOn("dark") && user.isOn("title") && !user.isOn("missing"))
        #expect(try client().user(["beta": true]).isOn("dark"))
    }

    @Test func attributesComeFromLiteralsEncodableValuesAndTheClient() throws {
        struct Profile: Encodable {
            var id = "u9"
            var country = "NL"
            var tags = ["qa"]
        }
        let encoded = try GrowthBookAttributes(encoding: Profile())
        #expect(encoded["country"] == "NL" && encoded["tags"] == ["qa"])
        #expect(throws: GrowthBookError.self) { try GrowthBookAttributes(encoding: [1, 2]) }
        let client = try client(.init(attributes: ["country": "NL", "beta": true]))
        #expect(client.user(["id": "u1"]).value(for: "title", default: "") == "Hoi")
        #expect(client.user(["country": "FR"]).value(for: "title", default: "") == "Hello")  // the user's wins
        #expect(client.user().isOn("dark"))
    }

    /// Merging sets each of the other's attributes over these in turn: the
    /// same whether it takes a shortcut (nothing on one side) or not.
    @Test func mergedAttributesAreTheOthersSetOverTheseInTurn() {
        let user: GrowthBookAttributes = ["id": "u1", "country": "NL"]
        #expect(GrowthBookAttributes().merging(user).json == user.json)
        #expect(user.merging(GrowthBookAttributes()).json == user.json)
        let over = GrowthBookAttributes(["country": "FR", "beta": true]).merging(user)
        #expect(over.json == ["beta": true, "id": "u1", "country": "NL"])
        // A name given twice is set twice: once, with its last value, at its last place.
        let twice = GrowthBookAttributes(.object([.init("id", "u1"), .init("plan", "free"), .init("id", "u2")]))
        #expect(GrowthBookAttributes().merging(twice).json == ["plan": "free", "id": "u2"])
        #expect(GrowthBookAttributes(["a": 1]).merging(twice).json == ["a": 1, "plan": "free", "id": "u2"])
        // Names are JavaScript's: "é" and "e" with a combining accent are two names.
        let accents: GrowthBookAttributes = ["\u{E9}": 1, "e\u{301}": 2]
        #expect(GrowthBookAttributes().merging(accents).json.members?.count == 2)
    }

    @Test func theTrackingCallbackFiresOncePerUserExperimentAndVariation() throws {
        let views = Mutex<[String]>([])
        let client = try client(
            .init(onExperimentViewed: { experiment, result in
                views.withLock {
                    $0.append("\(experiment.key) \(result.key) \(JavaScriptSemantics.string(result.attributeValue))")
                }
            })
        )
        for _ in 0..<3 { _ = client.user(["id": "u1"]).value(for: "cta", default: "") }
        _ = client.user(["id": "u2"]).evaluate("cta")
        _ = client.user(["id": "u2"]).evaluate("cta")
        let seen = views.withLock { $0 }
        #expect(seen.count == 2, "\(seen)")
        #expect(seen.allSatisfy { $0.hasPrefix("cta-test ") })
        #expect(Set(seen.map { $0.split(separator: " ").last.map(String.init) ?? "" }) == ["u1", "u2"])
    }

    @Test func theUsageCallbackFiresOncePerFeatureAndValue() throws {
        let uses = Mutex<[String]>([])
        let client = try client(
            .init(onFeatureUsage: { key, result in
                uses.withLock { $0.append("\(key)=\(JavaScriptSemantics.stringify(result.value) ?? "")") }
            })
        )
        _ = client.user(["country": "NL"]).isOn("title")
        _ = client.user(["country": "NL"]).isOn("title")
        _ = client.user(["country": "FR"]).isOn("title")
        #expect(uses.withLock { $0 } == [#"title="Hoi""#, #"title="Hello""#])
    }

    @Test func forcedFeaturesAndVariationsWinAndCanChangeLater() throws {
        let client = try client(.init(forcedFeatures: ["title": "Forced"], forcedVariations: ["cta-test": 2]))
        let user = client.user(["id": "u1"])
        #expect(user.evaluate("title").source == .override)
        #expect(user.value(for: "title", default: "") == "Forced")
        #expect(user.value(for: "cta", default: "") == "Get")
        client.updateOptions { $0.forcedFeatures = [:] }
        #expect(client.user(["id": "u1"]).value(for: "title", default: "") == "Hello")
        #expect(user.value(for: "title", default: "") == "Forced")  // a user keeps what it was made with
    }

    @Test func inlineExperimentsRunTyped() throws {
        let user = try client().user(["id": "u1"])
        let result = user.run(InlineExperiment(key: "headline", variations: [10, 20], weights: [0.5, 0.5]))
        #expect(result.inExperiment)
        #expect(result.value == [10, 20][result.variationId])
        let nobody = user.run(InlineExperiment(key: "headline", variations: ["a", "b"], coverage: 0))
        #expect(!nobody.inExperiment && nobody.value == "a")
    }

    @Test func aRefusedPayloadIsATypedErrorAndLeavesTheCurrentOne() throws {
        let client = try client()
        #expect(throws: GrowthBookError.self) { try client.replacePayload(Data("{".utf8)) }
        do {
            try client.replacePayload(
                Data(#"{"features": {"f": {"rules": [{"variations": [1, 2], "weights": "x"}]}}}"#.utf8)
            )
            Issue.record("a bad rule was taken")
        } catch {
            guard case .invalidPayload(_, let diagnostics) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(diagnostics.first?.message.contains("weights") == true)
        }
        #expect(client.user(["country": "NL"]).value(for: "title", default: "") == "Hoi")
    }

    /// Payloads swapped while many tasks evaluate: every user sees one whole
    /// payload (two features that always change together never disagree).
    @Test func anEvaluationNeverSeesHalfAPayload() async throws {
        func payload(_ version: Int) throws -> GrowthBookPayload {
            let text = #"{"features": {"a": {"defaultValue": \#(version)}, "b": {"defaultValue": \#(version)}}}"#
            return try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        }
        let versions = [try payload(1), try payload(2)]
        let client = GrowthBookClient(payload: versions[0])
        let mixed = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<2_000 { client.replacePayload(versions[round % 2]) }
                return 0
            }
            for _ in 0..<4 {
                group.addTask {
                    var mixed = 0
                    for _ in 0..<2_000 {
                        let user = client.user(["id": "u"])
                        if user.value(for: "a", default: 0) != user.value(for: "b", default: -1) { mixed += 1 }
                    }
                    return mixed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mixed == 0)
    }

    /// Sticky buckets kept by an asynchronous service: a user keeps the
    /// variation they got when the weights change, and the documents saved
    /// reach the service.
    @Test func stickyBucketsFromAnAsynchronousServiceKeepAUsersVariation() async throws {
        actor Documents: AsyncStickyBucketService {
            var saved: [String: JSONValue] = [:]
            var saves = 0
            func assignments(attributeName: String, attributeValue: String) async throws -> JSONValue? {
                saved["\(attributeName)||\(attributeValue)"]
            }
            func saveAssignments(_ document: JSONValue) async throws {
                saves += 1
                let name = document["attributeName"]?.stringValue ?? ""
                saved["\(name)||\(JavaScriptSemantics.string(document["attributeValue"]))"] = document
            }
            func count() -> Int { saved.count }
            func saveCount() -> Int { saves }
        }
        func payload(_ weights: String) throws -> GrowthBookPayload {
            let text =
                #"{"features": {"cta": {"defaultValue": "-", "rules": [{"key": "cta-test", "variations": ["a", "b"], "weights": \#(weights), "meta": [{"key": "a"}, {"key": "b"}]}]}}}"#
            return try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        }
        let documents = Documents()
        let client = GrowthBookClient(payload: try payload("[1, 0]"))
        let first = await client.user(["id": "u1"], stickyBuckets: documents)
        #expect(first.value(for: "cta", default: "") == "a")
        #expect(first.value(for: "cta", default: "") == "a")  // the second evaluation finds the first's bucket
        // Saved in the background: wait for it.
        #expect(await Poll.until(seconds: 10, every: .milliseconds(5)) { await documents.count() > 0 })
        #expect(await documents.count() == 1)
        #expect(await documents.saveCount() == 1)
        client.replacePayload(try payload("[0, 1]"))
        let later = await client.user(["id": "u1"], stickyBuckets: documents)
        #expect(later.value(for: "cta", default: "") == "a")
        #expect(later.evaluate("cta").experimentResult?.stickyBucketUsed == true)
        #expect(client.user(["id": "u1"]).value(for: "cta", default: "") == "b")  // without them, the new weights
    }

    @Test func aClientWithoutAPayloadServesDefaultsAndWaits() async throws {
        let client = GrowthBookClient(payload: nil)
        #expect(client.user().value(for: "title", default: "none") == "none")
        #expect(await client.waitForPayload(timeout: .milliseconds(30)) == false)
        client.replacePayload(try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil))
        #expect(await client.waitForPayload(timeout: .seconds(1)))
        #expect(client.user().value(for: "title", default: "none") == "Hello")
    }
}
