import Foundation
import Laboratory
import Testing

@testable import LaboratoryServer

/// What `lab serve` answers, built from the debug source's entries and the
/// manager's snapshot, without a network.
@Suite struct ServedStateTests {
    private static let catalog = """
        {"source": "Local", "experiments": [
          {"name": "ButtonColor", "keys": ["buttonColor"], "baseline": "Red", "variants": [
            {"name": "Red", "assignments": {"buttonColor": "red"}},
            {"name": "Blue", "assignments": {"buttonColor": "blue"}}]},
          {"name": "Size", "keys": ["size"], "activeTokenRange": [0.9, 1.0], "baseline": "Small", "variants": [
            {"name": "Small", "assignments": {"size": 10}}, {"name": "Large", "assignments": {"size": 14}}]}]}
        """

    private struct World {
        let store = InMemoryStateStore()
        let debug: DebugSource
        let manager: AssignmentsManager

        init() throws {
            let catalog = try CatalogDecoder().decode(Data(ServedStateTests.catalog.utf8), file: "c.json")
            let device = try store.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.5)))
            let local = LocalSource(catalog: catalog, store: store, device: device, random: SeededRandomSource(seed: 7))
            debug = DebugSource(sources: [local], store: store)
            manager = AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
        }

        func served() throws -> ServedState {
            let snapshot = try manager.refresh()
            return ServedState(entries: try debug.entries(), snapshot: snapshot, revision: try store.revision())
        }
    }

    private static func payload(_ state: ServedState) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: state.payload) as? [String: Any]
        return try #require(object?["features"] as? [String: Any])
    }

    @Test func aForcedVariantIsAPinnedExperimentRuleAndStatic() throws {
        let world = try World()
        try world.debug.activate(variant: "Blue", of: "ButtonColor")
        let state = try world.served()
        let flag = try #require(state.flags["buttonColor"])
        #expect(flag.value == "blue" && flag.variant == "Blue" && flag.reason == .static && flag.forced)
        let feature = try #require(try Self.payload(state)["buttonColor"] as? [String: Any])
        #expect(feature["defaultValue"] as? String == "red")
        let rule = try #require((feature["rules"] as? [[String: Any]])?.first)
        #expect(rule["key"] as? String == "ButtonColor")
        #expect(rule["variations"] as? [String] == ["red", "blue"])
        #expect(rule["weights"] as? [Double] == [0, 1])
        #expect(rule["coverage"] as? Double == 1)
        #expect((rule["meta"] as? [[String: String]])?.map { $0["name"] ?? "" } == ["Red", "Blue"])
        #expect(rule["bucketVersion"] as? Int == rule["minBucketVersion"] as? Int)
    }

    @Test func anInactiveExperimentServesItsBaselineWithoutARule() throws {
        let world = try World()
        let state = try world.served()
        // Token 0.5 is outside Size's range [0.9, 1).
        let flag = try #require(state.flags["size"])
        #expect(flag.value == 10 && flag.variant == "Small" && flag.reason == .default && !flag.forced)
        let feature = try #require(try Self.payload(state)["size"] as? [String: Any])
        #expect(feature["defaultValue"] as? Int == 10)
        #expect((feature["rules"] as? [Any])?.isEmpty == true)
        // A drawn variant is a split.
        #expect(state.flags["buttonColor"]?.reason == .split)
    }

    @Test func forcingInactiveDisablesAndChangesTheTags() throws {
        let world = try World()
        let before = try world.served()
        try world.debug.deactivate(experiment: "ButtonColor")
        let after = try world.served()
        let flag = try #require(after.flags["buttonColor"])
        #expect(flag.reason == .disabled && flag.value == "red" && flag.forced)
        #expect(before.payloadTag != after.payloadTag)
        #expect(before.flagsTag != after.flagsTag)
        #expect(after.keys == ["buttonColor", "size"])
    }

    @Test func requestsAreCountedOverTheLastMinute() {
        var activity = ServedStateHub.Activity()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for offset in [0.0, 0.5, 1, 30, 59] { activity.count(at: start + offset) }
        #expect(activity.requestsLastMinute == 5)
        activity.advance(to: start + 60.2)  // the first second has left the window
        #expect(activity.requestsLastMinute == 3)
        activity.count(at: start + 89)
        activity.advance(to: start + 89.5)
        #expect(activity.requestsLastMinute == 3)  // seconds 30, 59 and 89
        activity.advance(to: start + 500)
        #expect(activity.requestsLastMinute == 0)
    }
}
