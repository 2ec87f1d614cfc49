import Foundation
import LabDrivers
import LabTestSupport
import Laboratory
import LaboratoryRuntime
import LaboratorySQLite
import LaboratoryTesting
import Testing

/// Forcing reaches an app only when its wiring has a debug source, and the
/// app says so in the state file for the console and `lab force` to read.
@Suite struct LocalLaboratoryWiringTests {
    static let catalog = #"""
        {"source": "Local", "experiments": [
          {"name": "Color", "keys": ["color"], "baseline": "Red", "variants": [
            {"name": "Red", "assignments": {"color": "red"}}, {"name": "Blue", "assignments": {"color": "blue"}}]}]}
        """#

    static func open(_ folder: String, debugSource: Bool, app: String?) throws -> LocalLaboratory {
        let catalog = try CatalogDecoder().decode(Data(catalog.utf8), file: "c.json")
        return try LocalLaboratory(
            catalogs: [(path: folder + "/c.json", catalog: catalog)],
            statePath: folder + "/state.sqlite",
            debugSource: debugSource,
            app: app,
            random: FixedRandomSource(0.1)
        )
    }

    /// The test's state file and catalog, removed when it ends.
    private let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("lab-wiring") }

    @Test func aWiringWithoutADebugSourceIgnoresWhatTheConsoleForces() throws {
        let folder = scratch.path
        let console = try Self.open(folder, debugSource: true, app: nil)
        let release = try Self.open(folder, debugSource: false, app: "shop")
        let debug = try Self.open(folder, debugSource: true, app: "shop-debug")
        #expect(release.debug == nil)
        try #require(console.debug).force(variant: "Blue", of: "Color")
        #expect(try release.manager.refresh().assignment(for: "color")?.variant == "Red")
        #expect(try debug.manager.refresh().assignment(for: "color")?.variant == "Blue")
    }

    @Test func eachAppRecordsItsWiringAndToolsRecordNothing() throws {
        let folder = scratch.path
        _ = try Self.open(folder, debugSource: false, app: "shop")
        _ = try Self.open(folder, debugSource: true, app: nil)
        let store = try SQLiteStateStore(path: folder + "/state.sqlite")
        #expect(try store.appWirings() == [AppWiring(app: "shop", hasDebugSource: false, process: .current)])
        #expect(
            AppWiring.ignoringForcedVariants(try store.appWirings())
                == "shop has no debug source and ignores forced variants"
        )
        // The same app rebuilt for debugging replaces its record.
        _ = try Self.open(folder, debugSource: true, app: "shop")
        #expect(try store.appWirings() == [AppWiring(app: "shop", hasDebugSource: true, process: .current)])
        #expect(AppWiring.ignoringForcedVariants(try store.appWirings()) == nil)
    }

    /// The warning named an app without a debug source long after it had quit.
    @Test func anAppThatQuitIsNotNamedInTheWarning() throws {
        let current = try #require(AppProcess.current)
        #expect(current.isRunning)
        // A process that ran and ended: its id is free (or another process's, started later).
        // Its start is read before it is waited for: until then it stays, ended or not.
        let child = try Subprocess.start("/bin/true", [])
        let ended = AppProcess(pid: child.pid, startTicks: try #require(AppProcess.startTicks(of: child.pid)))
        #expect(child.wait().status == 0)
        #expect(!ended.isRunning)
        // A later process given the same id is not the same app.
        #expect(!AppProcess(pid: current.pid, startTicks: current.startTicks + 1).isRunning)
        let wirings = [
            AppWiring(app: "gone", hasDebugSource: false, process: ended),
            AppWiring(app: "shop", hasDebugSource: false, process: current),
            AppWiring(app: "old", hasDebugSource: false),
        ]
        #expect(
            AppWiring.ignoringForcedVariants(wirings) == "shop and old have no debug source and ignore forced variants"
        )
    }

    @Test func severalAppsIgnoringForcedVariantsAreNamedTogether() {
        let wirings = ["a", "b", "c"].map { AppWiring(app: $0, hasDebugSource: false) }
        #expect(
            AppWiring.ignoringForcedVariants(wirings) == "a, b and c have no debug source and ignore forced variants"
        )
    }

    @Test func theDefaultFollowsTheBuildConfiguration() throws {
        #if DEBUG
        #expect(LocalLaboratory.isDebugBuild)
        #else
        #expect(!LocalLaboratory.isDebugBuild)
        #endif
        let folder = scratch.path
        let catalog = try CatalogDecoder().decode(Data(Self.catalog.utf8), file: "c.json")
        let laboratory = try LocalLaboratory(
            catalogs: [(path: folder + "/c.json", catalog: catalog)],
            statePath: folder + "/state.sqlite"
        )
        #expect((laboratory.debug != nil) == LocalLaboratory.isDebugBuild)
        // Recorded under the process's name by default.
        #expect(try laboratory.store.appWirings().map(\.app) == [ProcessInfo.processInfo.processName])
    }
}
