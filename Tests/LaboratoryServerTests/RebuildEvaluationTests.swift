import Foundation
import GrowthBook
import Laboratory
import LaboratoryRuntime
import LaboratoryTesting
import Testing

@testable import LaboratoryServer

/// One change is evaluated once: `lab serve`'s rebuild after a force reads
/// each source's variants one time, and asks a GrowthBook source for its
/// shared features one time.
@Suite struct RebuildEvaluationTests {
    /// A source that counts how often it is evaluated, around a real one.
    private final class CountingSource: SharingSource, TargetedSource, DrawingSource, @unchecked Sendable {
        let wrapped: any ExperimentSource
        private let lock = NSLock()
        private var counts = (evaluations: 0, sharings: 0)

        init(_ wrapped: any ExperimentSource) { self.wrapped = wrapped }

        var evaluations: Int { lock.withLock { counts.evaluations } }
        var sharings: Int { lock.withLock { counts.sharings } }
        func resetCounts() { lock.withLock { counts = (0, 0) } }

        var name: String { wrapped.name }
        var experiments: [Experiment] { wrapped.experiments }
        func activeVariants() throws -> [ActiveVariant] {
            lock.withLock { counts.evaluations += 1 }
            return try wrapped.activeVariants()
        }
        func update() async throws { try await wrapped.update() }
        func stabilize() throws { try wrapped.stabilize() }
        func stabilization() throws -> Date? { try wrapped.stabilization() }
        func sharedFeatures(forcing forced: [ForcedVariant]) -> SharedFeatures? {
            lock.withLock { counts.sharings += 1 }
            return wrapped.sharing?.sharedFeatures(forcing: forced)
        }
        func useAttributes(_ attributes: [String: String]) { wrapped.targeting?.useAttributes(attributes) }
        var targetingAttributes: [String: [String]] { wrapped.targeting?.targetingAttributes ?? [:] }
        var defaultAttributes: [String: String] { wrapped.targeting?.defaultAttributes ?? [:] }
        func draws() throws -> [String: Draw] { try wrapped.drawing?.draws() ?? [:] }
        var userID: String? { wrapped.drawing?.userID }
    }

    private static let catalog = """
        {"source": "Local", "experiments": [
          {"name": "ButtonColor", "keys": ["buttonColor"], "baseline": "Red", "variants": [
            {"name": "Red", "assignments": {"buttonColor": "red"}},
            {"name": "Blue", "assignments": {"buttonColor": "blue"}}]}]}
        """

    private static let payload = """
        {"features": {"checkout": {"defaultValue": "old", "rules": [
          {"key": "CheckoutTest", "variations": ["old", "new"], "weights": [0.5, 0.5], "hashAttribute": "id"}]}}}
        """

    @Test func oneForceInLabServeEvaluatesEachSourceOnce() throws {
        let folder = NSTemporaryDirectory() + "rebuild-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try CatalogDecoder().decode(Data(Self.catalog.utf8), file: "c.json")
        var counted: [CountingSource] = []
        var accepted: (any Error)?
        let laboratory = try LocalLaboratory(
            catalogs: [],
            statePath: folder + "/state.sqlite",
            debugSource: true,
            app: nil,
            random: SeededRandomSource(seed: 3),
            remotes: { store, device in
                let growthBook = GrowthBookSource(
                    store: store,
                    device: device,
                    fetcher: PlainPayloadFetcher(InMemoryFetcher())
                )
                do { try growthBook.accept(Data(Self.payload.utf8)) } catch { accepted = error }
                let random = SeededRandomSource(seed: 5)
                let local = LocalSource(catalog: catalog, store: store, device: device, random: random)
                counted = [CountingSource(local), CountingSource(growthBook)]
                return counted
            }
        )
        if let accepted { throw accepted }
        let hub = try ServedStateHub(laboratory: laboratory)
        let debug = try #require(laboratory.debug)

        for variant in ["Blue", "Red"] {
            for source in counted { source.resetCounts() }
            try debug.force(variant: variant, of: "ButtonColor")
            try hub.rebuild()
            #expect(counted.map(\.evaluations) == [1, 1], "evaluations of each source after forcing \(variant)")
            #expect(counted.map(\.sharings) == [1, 1], "shared features asked for after forcing \(variant)")
            #expect(hub.current.flags["buttonColor"]?.variant == variant)
        }
    }
}
