import Foundation
import GrowthBook
import Laboratory
import LaboratoryRuntime
import LaboratoryTesting

/// Builders for the small catalogs and worlds the unit tests use.
enum Fixtures {
    static func experiment(
        _ name: String,
        keys: [String] = ["color"],
        variants: [(String, Double)] = [("Red", 1), ("Blue", 1)],
        range: HalfOpenRange? = nil
    ) -> Experiment {
        Experiment(
            name: name,
            keys: keys,
            variants: variants.map { variantName, weight in
                Variant(
                    name: variantName,
                    weight: weight,
                    assignments: VariantAssignments(
                        Dictionary(uniqueKeysWithValues: keys.map { ($0, .string("\(variantName)-\($0)")) })
                    )
                )
            },
            baseline: variants[0].0,
            activeTokenRange: range
        )
    }

    static func decode(_ json: String, file: String = "test.json") throws -> Catalog {
        try CatalogDecoder().decode(Data(json.utf8), file: file)
    }

    /// The problems the decoder reports for `json`, as `line:col: message`.
    static func problems(_ json: String) -> [String] {
        do {
            _ = try CatalogDecoder().decode(Data(json.utf8), file: "t.json")
            return []
        } catch {
            return error.diagnostics.map { "\($0.position?.description ?? "-"): \($0.message)" }
        }
    }

    /// The demo catalog shipped in share/laboratory.
    static func demoCatalog() throws -> Catalog {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try CatalogDecoder().decode(contentsOf: root.appendingPathComponent("share/laboratory/demo.json").path)
    }
}

/// One device: a store, sinks and sources over some catalogs.
struct World {
    let store: InMemoryStateStore
    let events: InMemoryEventSink
    let clock: ManualClock
    let device: Device
    let locals: [LocalSource]
    let debug: DebugSource
    let manager: AssignmentsManager

    init(
        _ catalogs: [Catalog],
        token: Double = 0.5,
        draws: any RandomSource = FixedRandomSource(0),
        store: InMemoryStateStore = InMemoryStateStore(),
        fetchers: [InMemoryFetcher]? = nil
    ) throws {
        self.store = store
        events = InMemoryEventSink()
        clock = ManualClock()
        device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(token)))
        let device = self.device
        let clock = self.clock
        locals = catalogs.enumerated().map { index, catalog in
            LocalSource(
                catalog: catalog,
                store: store,
                device: device,
                random: draws,
                clock: clock,
                fetcher: fetchers?[index]
            )
        }
        debug = DebugSource(sources: locals, store: store)
        manager = AssignmentsManager(sources: [debug], store: store, events: events, device: device, clock: clock)
    }

    func value(_ key: String) throws -> String? {
        try manager.refresh()
        return manager.value(for: key)?.description
    }
}

/// Hands out the given numbers in turn, so a test says exactly what each draw gets.
final class ScriptedRandomSource: RandomSource, @unchecked Sendable {
    private var values: [Double]
    private let lock = NSLock()
    private(set) var used = 0

    init(_ values: [Double]) {
        self.values = values
    }

    func nextUnit() -> Double {
        lock.lock()
        defer { lock.unlock() }
        precondition(!values.isEmpty, "the test drew more often than it scripted")
        used += 1
        return values.removeFirst()
    }
}
