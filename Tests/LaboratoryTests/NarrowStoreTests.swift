import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

/// An app's own store implements only the part it uses: a local source
/// needs a ``DeviceStore``, the manager an ``ActiveSetStore``, and neither
/// asks for forced variants or a payload cache.
@Suite struct NarrowStoreTests {
    /// Draws, device and stabilization only, kept in an in-memory store
    /// behind it (what an app's own database would hold); it counts how
    /// often draws are settled.
    final class DrawsOnly: DeviceStore, @unchecked Sendable {
        let inner = InMemoryStateStore()
        private let lock = NSLock()
        private var count = 0
        var settlings: Int { lock.withLock { count } }

        func device(candidate: Device) throws -> Device { try inner.device(candidate: candidate) }
        func settleDraws(
            source: String,
            experiments: [String],
            at time: Date,
            decide: (String, Draw?) -> DrawDecision
        ) throws -> [String: Draw] {
            lock.withLock { count += 1 }
            return try inner.settleDraws(source: source, experiments: experiments, at: time, decide: decide)
        }
        func draws(source: String) throws -> [String: Draw] { try inner.draws(source: source) }
        func stabilization(source: String) throws -> Date? { try inner.stabilization(source: source) }
        func stabilize(source: String, at time: Date, keeping payload: Data?) throws {
            try inner.stabilize(source: source, at: time, keeping: payload)
        }
        func stabilizedPayload(source: String) throws -> Data? { try inner.stabilizedPayload(source: source) }
        func unstabilize(source: String) throws { try inner.unstabilize(source: source) }
        func revision() throws -> Int64 { try inner.revision() }
        func deviceRevision() throws -> Int64 { try inner.deviceRevision() }
    }

    /// The active set alone, which the manager records.
    final class ActiveSetOnly: ActiveSetStore {
        let inner = InMemoryStateStore()
        func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
            try inner.swapActiveAssignments(assignments)
        }
        func appWirings() throws -> [AppWiring] { try inner.appWirings() }
        func recordAppWiring(_ wiring: AppWiring) throws { try inner.recordAppWiring(wiring) }
        func revision() throws -> Int64 { try inner.revision() }
    }

    @Test func aLocalSourceAndAManagerRunOnTheStoresTheyNeed() throws {
        let draws = DrawsOnly()
        let device = try draws.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.3)))
        let catalog = try Fixtures.demoCatalog()
        let source = LocalSource(catalog: catalog, store: draws, device: device, random: SeededRandomSource(seed: 7))
        let events = InMemoryEventSink()
        let manager = AssignmentsManager(sources: [source], store: ActiveSetOnly(), events: events, device: device)
        let snapshot = try manager.refresh()

        // The token 0.3 falls in SubscriptionPromptImage's range: drawn, stored, served.
        let drawn = try #require(try draws.draws(source: source.name)["SubscriptionPromptImage"])
        let served = snapshot.active.first { $0.experiment.name == "SubscriptionPromptImage" }
        #expect(served?.variant.name == drawn.variant)
        #expect(!events.events.filter { $0.reason == .activated }.isEmpty)
        // A second start over the same stores keeps the draw.
        let again = LocalSource(catalog: catalog, store: draws, device: device, random: SeededRandomSource(seed: 99))
        #expect(try again.activeVariants().contains { $0.variant.name == drawn.variant })
    }
}

/// A local source settles its draws again only when the device's part of
/// the state moved: a force elsewhere in the file leaves its draws alone,
/// another process's draw does not.
@Suite struct DeviceRevisionTests {
    @Test func aForceDoesNotSettleTheDrawsAgainAndAnotherDrawDoes() throws {
        let store = NarrowStoreTests.DrawsOnly()
        let device = try store.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.3)))
        let source = LocalSource(
            catalog: try Fixtures.demoCatalog(),
            store: store,
            device: device,
            random: SeededRandomSource(seed: 7)
        )
        let first = try source.activeVariants()
        #expect(store.settlings == 1)

        try store.inner.setForcedVariant(
            ForcedVariant(source: source.name, experiment: "SubscriptionPromptImage", variant: nil)
        )
        #expect(try source.activeVariants() == first)
        #expect(store.settlings == 1, "a force moved the revision, not the device's part")

        // Another process forgets a draw: this one settles again and draws it anew.
        _ = try store.inner.settleDraws(source: source.name, experiments: [], at: Date()) { _, _ in .keep }
        _ = try source.activeVariants()
        #expect(store.settlings == 2)
        #expect(try store.draws(source: source.name)["SubscriptionPromptImage"] != nil)
    }
}
