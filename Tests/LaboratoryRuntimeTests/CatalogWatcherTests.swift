import Foundation
import LabTestSupport
import Laboratory
import LaboratoryRuntime
import Testing

/// Edited catalog files reach their local sources; broken edits keep the last good catalog.
@Suite struct CatalogWatcherTests {
    private static func catalog(_ variants: [String]) -> String {
        let list = variants.map { #"{"name": "\#($0)", "assignments": {"color": "\#($0.lowercased())"}}"# }
        return """
            {"source": "Local", "experiments": [
              {"name": "Color", "keys": ["color"], "baseline": "\(variants[0])", "variants": [\(list.joined(separator: ","))]}]}
            """
    }

    private struct World {
        let scratch: TemporaryFolder
        var folder: String { scratch.path }
        var path: String { folder + "/c.json" }
        let laboratory: LocalLaboratory
        let watcher: CatalogWatcher

        init() throws {
            scratch = try TemporaryFolder("lab-watch")
            let folder = scratch.path
            let text = CatalogWatcherTests.catalog(["Red", "Blue"])
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
            let catalog = try CatalogDecoder().decode(Data(text.utf8), file: "c.json")
            laboratory = try LocalLaboratory(
                catalogs: [(path: folder + "/c.json", catalog: catalog)],
                statePath: folder + "/state.sqlite"
            )
            watcher = CatalogWatcher(laboratory: laboratory)
        }

        func variants() -> [String] { laboratory.locals[0].experiments.first?.variants.map(\.name) ?? [] }

        /// Replaces the file the way editors that save by renaming do.
        func save(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    @Test func anEditIsReloadedOnceAndABrokenOneKeepsTheLastGoodCatalog() async throws {
        let world = try World()
        #expect(await world.watcher.reloadChanged() == (0, []))
        try world.save(Self.catalog(["Red", "Blue", "Green"]))
        #expect(await world.watcher.reloadChanged() == (1, []))
        #expect(world.variants() == ["Red", "Blue", "Green"])
        #expect(await world.watcher.reloadChanged() == (0, []))  // nothing new since
        try world.save(#"{"source": "Local", "experiments": [oops]}"#)
        let broken = await world.watcher.reloadChanged()
        #expect(broken.reloaded == 0 && broken.problems.count == 1)
        #expect(broken.problems.first?.hasPrefix(world.path + ":1:") == true, "\(broken.problems)")
        #expect(broken.problems.first?.hasSuffix("the last good one stays in use") == true)
        #expect(world.variants() == ["Red", "Blue", "Green"])
        #expect(await world.watcher.reloadChanged() == (0, []))  // reported once per change
        try FileManager.default.removeItem(atPath: world.path)
        #expect(await world.watcher.reloadChanged().problems.first?.contains("gone") == true)
        #expect(world.variants() == ["Red", "Blue", "Green"])
    }
}

extension CatalogWatcherTests {
    private static func payload(_ value: String) -> String {
        #"{"features": {"headline": {"defaultValue": "none", "rules": [{"force": "\#(value)"}]}}}"#
    }

    /// A `--growthbook` payload file was read once at start: an edit reached
    /// neither the console nor `lab serve` until they were restarted.
    @Test func anEditedPayloadFileIsReadAgainAndABrokenOneKeepsTheLastGood() async throws {
        let scratch = try TemporaryFolder("lab-watch")
        let path = scratch.file("payload.json")
        try Data(Self.payload("hello").utf8).write(to: URL(fileURLWithPath: path))
        var source: GrowthBookSource?
        let laboratory = try LocalLaboratory(
            catalogs: [],
            statePath: scratch.file("state.sqlite"),
            remotes: { store, device in
                let payload = GrowthBookSource(
                    store: store,
                    device: device,
                    fetcher: PlainPayloadFetcher(FileFetcher(path: path)),
                    file: path
                )
                source = payload
                return [payload]
            }
        )
        let payload = try #require(source)
        try payload.accept(try Data(contentsOf: URL(fileURLWithPath: path)))
        let watcher = CatalogWatcher(laboratory: laboratory)
        func headline() throws -> String? {
            try laboratory.manager.refresh().assignment(for: "headline")?.value.description
        }
        #expect(try headline() == "hello")
        #expect(await watcher.reloadChanged() == (0, []))
        try Data(Self.payload("bonjour").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(await watcher.reloadChanged() == (1, []))
        #expect(try headline() == "bonjour")
        try Data("{\"features\": ".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        let broken = await watcher.reloadChanged()
        #expect(broken.reloaded == 0 && broken.problems.first?.hasPrefix(path + ":") == true, "\(broken.problems)")
        #expect(try headline() == "bonjour")
    }
}
