import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

/// A device's attributes in layers (the app's, the stored ones, a run's),
/// what the wrapped sources make of them, and how a person changes them.
@Suite struct DeviceAttributesTests {
    static let payload = """
        {"features": {"cta": {"defaultValue": "Buy", "rules": [
          {"condition": {"country": "FR"}, "force": "Acheter"},
          {"key": "cta-test", "condition": {"$not": {"plan.tier": "free"}}, "variations": ["Buy", "Go"],
           "weights": [0, 1], "hashAttribute": "deviceId", "fallbackAttribute": "id"}
        ]}}}
        """

    static func growthBook(_ store: InMemoryStateStore, own: [String: String] = [:]) throws -> GrowthBookSource {
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        let source = GrowthBookSource(
            store: store,
            device: device,
            attributes: own,
            fetcher: PlainPayloadFetcher(InMemoryFetcher())
        )
        try source.accept(Data(payload.utf8))
        return source
    }

    @Test func storedAttributesWinOverTheAppsOwnAndThisRunsOverBoth() throws {
        let store = InMemoryStateStore()
        let debug = DebugSource(sources: [], store: store, attributes: ["country": "US", "plan": "free"])
        try store.setStoredAttributes(["country": "FR", "plan": "pro"])
        debug.useAttributes(["plan": "team"])
        #expect(debug.deviceAttributes == ["country": "FR", "plan": "team"])
        let list = try debug.attributeList()
        #expect(list.map(\.name) == ["country", "plan"])
        #expect(list.map(\.origin) == [.stored, .run])
        // A later call replaces this run's attributes: the stored plan shows again.
        debug.useAttributes([:])
        #expect(debug.deviceAttributes == ["country": "FR", "plan": "pro"])
        // Another process storing attributes is seen at the next read.
        try store.setStoredAttributes([:])
        #expect(debug.deviceAttributes == ["country": "US", "plan": "free"])
        #expect(try debug.attributeList().map(\.origin) == [.app, .app])
    }

    /// `useAttributes` used to be ignored by GrowthBook sources: the
    /// attributes given at start were the only ones ever evaluated.
    @Test func aGrowthBookSourceEvaluatesTheAttributesAsTheyAreNow() throws {
        let store = InMemoryStateStore()
        let source = try Self.growthBook(store, own: ["country": "US"])
        let debug = DebugSource(sources: [source], store: store)
        func cta() throws -> String? {
            try debug.activeVariants().first { $0.experiment.keys == ["cta"] && $0.variant.name == "RuleValue" }
                .map { _ in "Acheter" }
        }
        #expect(try cta() == nil)
        try store.setStoredAttributes(["country": "FR"])
        #expect(try cta() == "Acheter")
        try store.setStoredAttributes([:])
        // Taken away, the app's own value is evaluated again.
        #expect(try cta() == nil)
    }

    @Test func targetingAttributesNameTheRulesThatReadThemAndGrowthBookDefaultsTheID() throws {
        let store = InMemoryStateStore()
        let source = try Self.growthBook(store)
        let debug = DebugSource(sources: [source], store: store)
        #expect(source.targetingAttributes["country"] == ["cta: force"])
        #expect(source.targetingAttributes["plan.tier"] == ["cta-test"])
        #expect(source.targetingAttributes["deviceId"] == ["cta-test"])
        #expect(source.targetingAttributes["id"] == ["cta-test"])
        _ = try Steering(debug: debug, manager: manager(debug, store), store: store, clock: ManualClock()).force(
            "1",
            of: "cta-test",
            scope: Scope(attributes: ["qa": "ana"]),
            tester: "ana"
        )
        let list = try debug.attributeList()
        #expect(
            list.first { $0.name == "id" }
                == DeviceAttribute(name: "id", value: "device-1", origin: .source, readBy: ["cta-test"])
        )
        // A scoped forced variant reads its scope's attributes.
        #expect(list.first { $0.name == "qa" }?.readBy == ["cta-test"])
        #expect(list.last?.origin == .unset)
    }

    private func manager(_ debug: DebugSource, _ store: InMemoryStateStore) throws -> AssignmentsManager {
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        return AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
    }

    @Test func aUserIDAttributeLogsTheUserInAndTakenAwayTheAppsUserIsBack() throws {
        let store = InMemoryStateStore()
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        let local = LocalSource(
            catalog: Catalog(source: "Local", experiments: []),
            store: store,
            device: device,
            random: FixedRandomSource(0),
            userID: "app-user"
        )
        let debug = DebugSource(sources: [local], store: store)
        try store.setStoredAttributes(["userId": "qa-user"])
        _ = try debug.entries()
        #expect(local.userID == "qa-user")
        try store.setStoredAttributes([:])
        _ = try debug.entries()
        #expect(local.userID == "app-user")
    }

    @Test func settingAnAttributeSaysWhatChangedAndARunsValueGivesWay() throws {
        let store = InMemoryStateStore()
        let debug = DebugSource(sources: [try Self.growthBook(store)], store: store, attributes: ["country": "US"])
        let steering = Steering(debug: debug, manager: try manager(debug, store), store: store, clock: ManualClock())
        debug.useAttributes(["country": "DE"])
        let first = try steering.setAttribute("country", to: "FR").message
        #expect(first == "country is FR now: 2 experiments changed.")
        #expect(debug.runAttributes == [:])
        #expect(try steering.setAttribute("country", to: "FR").message == "country is FR now; no experiment changed.")
        #expect(
            try steering.setAttribute("country", to: nil).message
                == "Removed country; it is US as the app gives it: 2 experiments changed."
        )
        #expect(try steering.setAttribute("plan", to: nil).message == "plan was not set here.")
        #expect(throws: DeviceAttribute.Invalid.self) { try steering.setAttribute("", to: "x") }
        #expect(throws: DeviceAttribute.Invalid.self) { try steering.setAttribute("a=b", to: "x") }
        #expect(throws: DeviceAttribute.Invalid.self) { try steering.setAttribute("plan", to: "pro\n") }
        #expect(throws: DeviceAttribute.Invalid.self) {
            try steering.setAttribute("plan", to: String(repeating: "x", count: 1_025))
        }
        #expect(try store.storedAttributes() == [:])
    }
}
