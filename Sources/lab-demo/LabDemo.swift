import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// `lab-demo`: an app that uses Laboratory the way a real one would.
///
/// It wraps the demo catalog in a debug source (in debug builds, or with
/// `--debug-source`) over the same state file as `lab`, draws a subscribe screen from its assignments, reports `displayed`
/// for what it shows, and redraws when `lab console` (or `lab force`) in
/// another terminal changes a variant. Read it as the integration guide.
@main
struct LabDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab-demo",
        abstract: "A demo app: a subscribe screen drawn from Laboratory assignments, live."
    )

    @Option(name: .customLong("catalog"), help: "Catalog files (default: the demo catalog).")
    var catalogs: [String] = []

    @Option(help: "The state file shared with lab (default: $XDG_STATE_HOME/laboratory/default.sqlite).")
    var state: String?

    @Flag(help: "Draw once and exit, instead of redrawing on every change.")
    var once = false

    @Flag(
        inversion: .prefixedNo,
        help: "Whether forced variants apply (default: in debug builds only, as in an app)."
    )
    var debugSource = LocalLaboratory.isDebugBuild

    func run() async throws {
        // 1. Load the catalogs the app ships with; a bad one is a bug in the app.
        let paths = catalogs.isEmpty ? [DemoCatalog.locate()].compactMap { $0 } : catalogs
        guard !paths.isEmpty else { throw ValidationError("the demo catalog was not found; pass --catalog") }
        let loaded = try paths.map { path in (path: path, catalog: try CatalogDecoder().decode(contentsOf: path)) }

        // 2. Open the shared state and wire sources → debug source → manager.
        //    The debug source is for builds QA tests; a release build leaves it out.
        let laboratory = try LocalLaboratory(
            catalogs: loaded,
            statePath: state ?? LocalLaboratory.defaultStatePath(),
            debugSource: debugSource
        )
        let manager = laboratory.manager
        try manager.refresh()

        // Colours, key hints and screen clearing are for a person at a terminal, not a file or a pipe.
        let terminal = isatty(STDOUT_FILENO) == 1
        let colors = terminal && (ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true)
        let screen = SubscribeScreen(colors: colors, hints: terminal)
        if once {
            FileHandle.standardOutput.write(Data(try show(screen, manager: manager, clear: false).utf8))
            return
        }

        // 3. See changes other processes make (a forced variant) within half a second.
        let watcher = Task.detached { await manager.watch(every: .milliseconds(300)) }
        defer { watcher.cancel() }
        for await _ in manager.changes() {
            FileHandle.standardOutput.write(Data(try show(screen, manager: manager, clear: terminal).utf8))
        }
    }

    /// Draws the screen and reports each assignment it used as displayed
    /// (recorded once per experiment and variant on this device).
    private func show(_ screen: SubscribeScreen, manager: AssignmentsManager, clear: Bool) throws -> String {
        let drawing = screen.draw(manager.snapshot)
        for key in SubscribeScreen.keys {
            if let assignment = manager.assignment(for: key) { try manager.report(assignment, reason: .displayed) }
        }
        return (clear ? "\u{1B}[H\u{1B}[2J" : "") + drawing
    }
}
