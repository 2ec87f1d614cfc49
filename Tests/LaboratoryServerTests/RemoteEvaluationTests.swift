import Foundation
import GrowthBook
import Testing

@testable import LaboratoryServer

/// GrowthBook's remote evaluation: what an SDK posts, and the payload
/// evaluated for that user as GrowthBook's proxy answers it.
@Suite struct RemoteEvaluationTests {
    static let payload = #"""
        {"features": {
          "headline": {"defaultValue": "Hello", "rules": [
            {"force": "Hoi", "condition": {"country": "NL"}},
            {"key": "headline-test", "variations": ["Hello", "Welcome"], "condition": {"plan": "pro"},
             "meta": [{"key": "plain"}, {"key": "warm"}]}]},
          "off": {"defaultValue": false},
          "zero": {"defaultValue": 0, "rules": [{"force": 7, "condition": {"beta": true}}]},
          "on": {"defaultValue": {"size": 2}}}}
        """#

    private func answer(_ body: String) throws -> JSONValue {
        let payload = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil)
        let request = try RemoteEvaluation.Request(body: Array(body.utf8))
        return RemoteEvaluation.answer(request, payload: payload, dateUpdated: .string("2026-11-24T00:00:00Z"))
    }

    @Test func eachFeatureIsEvaluatedForThePostedUserAndOffOnesAreLeftOut() throws {
        let dutch = try answer(#"{"attributes": {"id": "u1", "country": "NL"}}"#)
        #expect(dutch["features"]?["headline"] == .object([.init("defaultValue", .string("Hoi"))]))
        #expect(dutch["features"]?["off"] == nil)
        #expect(dutch["features"]?["zero"] == nil)
        #expect(dutch["features"]?["on"]?["defaultValue"] == .object([.init("size", .number(2))]))
        #expect(dutch["experiments"] == .array([]))
        #expect(dutch["dateUpdated"] == .string("2026-11-24T00:00:00Z"))
        let beta = try answer(#"{"attributes": {"id": "u1", "beta": true}}"#)
        #expect(beta["features"]?["zero"]?["defaultValue"] == .number(7))
    }

    @Test func anExperimentsAnswerTracksItWithoutItsTargetingOrOtherVariations() throws {
        let pro = try answer(#"{"attributes": {"id": "u1", "plan": "pro"}, "forcedVariations": {"headline-test": 1}}"#)
        let headline = try #require(pro["features"]?["headline"])
        #expect(headline["defaultValue"] == .string("Welcome"))
        let rule = try #require(headline["rules"]?.elements?.first)
        #expect(rule["force"] == .string("Welcome"))
        let track = try #require(rule["tracks"]?.elements?.first)
        #expect(track["experiment"]?["condition"] == nil)
        #expect(track["experiment"]?["variations"] == .array([.object([]), .string("Welcome")]))
        #expect(track["result"]?["key"] == .string("warm"))
        #expect(track["result"]?["variationId"] == .number(1))
        #expect(track["result"]?["inExperiment"] == .bool(true))
    }

    @Test func forcedFeaturesAndTheURLAreTheSDKs() throws {
        let forced = try answer(#"{"forcedFeatures": [["headline", "Forced"], ["on", false]]}"#)
        #expect(forced["features"]?["headline"]?["defaultValue"] == .string("Forced"))
        #expect(forced["features"]?["on"] == nil)
        let url = try answer(
            #"{"attributes": {"id": "u1", "plan": "pro"}, "url": "https://app.test/?headline-test=0"}"#
        )
        #expect(url["features"]?["headline"]?["defaultValue"] == .string("Hello"))
    }

    @Test(arguments: [
        ("[]", "the body must be a JSON object"), ("{", "the body is not JSON"),
        (#"{"attributes": 3}"#, "\"attributes\" must be an object"),
        (#"{"forcedVariations": {"e": "x"}}"#, "forced variation of \"e\" must be a whole number"),
        (#"{"forcedFeatures": [["a"]]}"#, "\"forcedFeatures\" must be a list of [key, value] pairs"),
        (#"{"url": 1}"#, "\"url\" must be a string"),
    ])
    func badBodiesAreRefusedWithAReason(_ body: String, _ reason: String) {
        #expect(throws: RemoteEvaluation.Request.Invalid(reason: reason)) {
            try RemoteEvaluation.Request(body: Array(body.utf8))
        }
    }

    @Test func anEmptyBodyAsksForAnAnonymousUser() throws {
        #expect(try RemoteEvaluation.Request(body: Array(" \n".utf8)) == RemoteEvaluation.Request())
        #expect(try RemoteEvaluation.Request(body: Array(#"{"attributes": null}"#.utf8)) == RemoteEvaluation.Request())
    }

    /// Over HTTP: client keys count, a bad body is a 400 with its reason,
    /// and a force in another process changes the next answer.
    @Test func theEndpointAnswersAndAForceReachesTheNextAnswer() async throws {
        let served = try await LabServerTests.Served(clientKeys: ["key"])
        defer { served.stop() }
        let unknown = try await served.request("api/eval/other", method: "POST", body: Data("{}".utf8))
        #expect(unknown.status == 401)
        let bad = try await served.request("api/eval/key", method: "POST", body: Data("[]".utf8))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("the body must be a JSON object"))
        let first = try await served.request(
            "api/eval/key",
            method: "POST",
            body: Data(#"{"attributes": {"id": "u1"}}"#.utf8)
        )
        #expect(first.status == 200)
        #expect(first.headers["cache-control"] == "no-store")
        let drawn = try JSONValue.parse(String(decoding: first.body, as: UTF8.self))["features"]?["buttonColor"]?[
            "defaultValue"
        ]
        let (other, value) = drawn == .string("blue") ? ("Red", "red") : ("Blue", "blue")
        try #require(try served.console().debug).force(variant: other, of: "ButtonColor")
        let clock = ContinuousClock()
        let start = clock.now
        var answered: JSONValue?
        while clock.now - start < .seconds(10) {
            let next = try await served.request(
                "api/eval/key",
                method: "POST",
                body: Data(#"{"attributes": {"id": "u1"}}"#.utf8)
            )
            answered = try JSONValue.parse(String(decoding: next.body, as: UTF8.self))["features"]?["buttonColor"]?[
                "defaultValue"
            ]
            if answered == .string(value) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(answered == .string(value))
    }
}
