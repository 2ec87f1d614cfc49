import ArgumentParser
import Foundation
import Laboratory
import LaboratoryRuntime

/// `lab-demo`: an app that uses Laboratory the way a real one would.
///
/// It wraps the demo catalog in a debug source (in debug builds, or with
/// `--debug-source`) over the same state file as `lab`, draws a subscribe screen from its assignments, reports `displayed`
/// for what it shows, and redraws when `lab console` (or `lab force`) in
/// another terminal changes a variant, or a `--growthbook` server changes its
/// payload. Read it as the integration guide.
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

    @Option(help: "A GrowthBook API host (with --client-key) or payload URL, kept current as the app runs.")
    var growthbook: String?

    @Option(
        help: "The GrowthBook client key: the payload is <host>/api/features/<key>, streamed from <host>/sub/<key>."
    )
    var clientKey: String?

    @Option(help: "The key of an encrypted GrowthBook payload.")
    var decryptionKey: String?

    @Option(help: "Seconds between fetches of the GrowthBook payload.")
    var refreshInterval = 30

    func validate() throws {
        guard (1...86_400).contains(refreshInterval) else {
            throw ValidationError("--refresh-interval must be from 1 to 86400 seconds (a day), not \(refreshInterval)")
        }
        if let growthbook, !(growthbook.hasPrefix("http://") || growthbook.hasPrefix("https://")) {
            throw ValidationError("--growthbook must be an http:// or https:// URL, not \(growthbook)")
        }
        if clientKey != nil && growthbook == nil { throw ValidationError("--client-key needs --growthbook") }
    }

    /// The GrowthBook payload to follow, if one was named.
    private var connection: GrowthBookConnection? {
        guard let growthbook, let url = URL(string: growthbook) else { return nil }
        let interval = Duration.seconds(refreshInterval)
        if let clientKey {
            return GrowthBookConnection(
                apiHost: url,
                clientKey: clientKey,
                decryptionKey: decryptionKey,
                refreshInterval: interval,
                autoRefresh: !once
            )
        }
        return GrowthBookConnection(
            featuresURL: url,
            decryptionKey: decryptionKey,
            refreshInterval: interval,
            autoRefresh: !once
        )
    }

    func run() async throws {
        // 1. Load the catalogs the app ships with; a bad one is a bug in the app.
        //    With a GrowthBook payload, the experiments may all come from it.
        let paths = catalogs.isEmpty && growthbook == nil ? [DemoCatalog.locate()].compactMap { $0 } : catalogs
        guard !paths.isEmpty || growthbook != nil else {
            throw ValidationError("the demo catalog was not found; pass --catalog")
        }
        let loaded = try paths.map { path in (path: path, catalog: try CatalogDecoder().decode(contentsOf: path)) }

        // 2. Open the shared state and wire sources → debug source → manager.
        //    The debug source is for builds QA tests; a release build leaves it out.
        //    A GrowthBook payload is served from the state file at once and
        //    kept current in the background (polling, or streaming when offered).
        let laboratory = try LocalLaboratory(
            catalogs: loaded,
            statePath: state ?? LocalLaboratory.defaultStatePath(),
            debugSource: debugSource,
            growthBook: connection
        )
        let manager = laboratory.manager
        try manager.refresh()
        // Drawn once: with the payload as it is now, not as it was last stored.
        if once && laboratory.growthBook != nil { await manager.update() }

        // Colours, key hints and screen clearing are for a person at a terminal, not a file or a pipe.
        let terminal = isatty(STDOUT_FILENO) == 1
        let colors = terminal && (ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true)
        let screen = SubscribeScreen(colors: colors, hints: terminal)
        if once {
            FileHandle.standardOutput.write(Data(try show(screen, manager: manager, clear: false).utf8))
            return
        }

        // 3. See changes other processes make (a forced variant) within half a second.
        let watcher = Task.detached { await manager.watch() }
        defer { watcher.cancel() }
        for await _ in manager.changes() {
            FileHandle.standardOutput.write(Data(try show(screen, manager: manager, clear: terminal).utf8))
        }
    }

    /// The terminal's width in columns, if standard output is one that says.
    private static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Draws the screen and reports each assignment it used as displayed
    /// (recorded once per experiment and variant on this device).
    private func show(_ screen: SubscribeScreen, manager: AssignmentsManager, clear: Bool) throws -> String {
        var screen = screen
        // As wide as the terminal is now (a window may have been resized); 80 columns for a file or a pipe.
        if isatty(STDOUT_FILENO) == 1, let columns = Self.terminalColumns() { screen.columns = columns }
        let drawing = screen.draw(manager.snapshot)
        for key in SubscribeScreen.keys {
            if let assignment = manager.assignment(for: key) { try manager.report(assignment, reason: .displayed) }
        }
        return (clear ? "\u{1B}[H\u{1B}[2J" : "") + drawing
    }
}
