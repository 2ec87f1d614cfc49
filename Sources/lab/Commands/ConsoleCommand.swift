import ArgumentParser
import ConsoleCurses
import Foundation
import Laboratory
import LaboratoryConsole
import LaboratoryRuntime
import LaboratoryServer
import Synchronization

/// `lab console`: the Tweaks-style terminal UI.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Browse experiments and force variants in a live terminal UI.",
        discussion: "Press ? inside for the keys. Honours NO_COLOR."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Seconds between fetches of a --growthbook URL.") var refreshInterval: Int = 30
    @Flag(help: "Also serve the state file to apps, as lab serve does (see Settings for the address).")
    var serve = false
    @Option(help: "With --serve: the address to listen on.") var host = "127.0.0.1"
    @Option(help: "With --serve: the port to listen on (0: any free port).") var port = 3100
    @OptionGroup var access: ServerAccessOptions
    @OptionGroup var connect: ConnectOptions
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Force only for the users with this attribute, and show what they get (repeatable, or joined "
                + "with commas: id=qa-phone-7,os=ios); the title bar shows it. Without it, forcing is for everyone.",
            valueName: "name=value"
        )
    )
    var scopeMatches: [String] = []

    /// The console's scope, from `--as`.
    private var scope: Scope {
        (try? Scope(parsing: scopeMatches)) ?? .everyone
    }

    func validate() throws {
        guard (1...86_400).contains(refreshInterval) else {
            throw ValidationError("--refresh-interval must be from 1 to 86400 seconds (a day), not \(refreshInterval)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        do {
            _ = try Scope(parsing: scopeMatches)
        } catch {
            throw ValidationError("--as: \(error)")
        }
        if connect.url != nil && serve {
            throw ValidationError("--serve serves a state file on this machine; --connect works through another server")
        }
    }

    func run() throws {
        if let connection = connect.connection { return try runConnected(connection) }
        let session = try LabSession.open(global, refreshInterval: refreshInterval)
        // The screens show what the scope's users get: its attributes are theirs.
        session.debug.useAttributes(session.attributes.merging(scope.attributes) { _, scoped in scoped })
        let server = try serve ? startServer(session) : nil
        defer { server?.stop() }
        let catalogs = CatalogWatcher(laboratory: session.laboratory)
        // A remote payload is fetched in the background; the screen shows the last good one meanwhile.
        let updater = session.laboratory.updater
        defer { updater?.stop() }
        let environment = LiveConsoleEnvironment(
            manager: session.manager,
            debug: session.debug,
            store: session.store,
            log: session.store,
            scope: scope,
            tester: session.tester,
            files: .disk,
            origin: global.statePath,
            server: serverInfo(server),
            catalogs: { await catalogs.reloadChanged() },
            schedules: { session.fetchSchedules }
        )
        try show(environment) { updater?.start() }
    }

    /// `--connect`: the same console over a `lab serve`'s steering API, live
    /// from its change stream; nothing is read from or written to a state file here.
    private func runConnected(_ connection: HTTPSteeringConnection) throws {
        // A wrong address or token is said on the command line, before the terminal is taken.
        _ = try RemoteChange.reporting { try connection.snapshot(scope: scope, events: 0) }
        let monitor = ChangeMonitor()
        let follower = Task.detached { await ChangeFollower.follow(connection, monitor: monitor) }
        defer { follower.cancel() }
        let environment = RemoteConsoleEnvironment(
            connection: connection,
            monitor: monitor,
            scope: scope,
            files: .disk
        )
        try show(environment)
    }

    /// Runs the terminal UI over `environment` until the person quits;
    /// `starting` runs once the terminal is ours (background fetches begin then).
    private func show(_ environment: any ConsoleEnvironment, starting: () -> Void = {}) throws {
        let colors = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(colors: colors)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        defer { terminal.close() }
        starting()
        ConsoleRunner(terminal: terminal, environment: environment).run()
        // Ended by a signal from outside: give the terminal back, then exit as
        // shells expect (128 + the signal: 143 for SIGTERM, 129 SIGHUP, 130 SIGINT).
        if let signal = terminal.endingSignal {
            terminal.close()
            throw ExitCode(128 + signal)
        }
    }

    /// The server `--serve` runs beside the console, and what Settings shows of it.
    private final class RunningServer: Sendable {
        let hub: ServedStateHub
        /// The address once bound, or why the server stopped.
        let address: Mutex<String>
        private let task = Mutex<Task<Void, Never>?>(nil)
        /// Signalled once the server listens or has failed to.
        private let started = DispatchSemaphore(value: 0)
        /// Why it could not listen, when it could not.
        private let failure = Mutex<String?>(nil)

        init(hub: ServedStateHub, server: LabServer, shownHost: String) {
            self.hub = hub
            address = Mutex("starting on \(shownHost):\(server.port)…")
            task.withLock {
                $0 = Task.detached { [self] in
                    do {
                        try await server.run { port in
                            self.address.withLock { $0 = "http://\(shownHost):\(port)" }
                            self.started.signal()
                        }
                    } catch is CancellationError {
                    } catch {
                        let reason = ListenFailure.reason(error)
                        self.address.withLock { $0 = "not serving: \(reason)" }
                        // Read only by a start still waiting; a later stop just shows in Settings.
                        self.failure.withLock { $0 = reason }
                        self.started.signal()
                    }
                }
            }
        }

        /// Waits until the server listens; why it cannot, when it cannot, so
        /// the console never opens as if apps could reach it.
        func waitUntilListening() -> String? {
            _ = started.wait(timeout: .now() + 10)
            return failure.withLock { $0 }
        }

        func stop() { task.withLock { $0?.cancel() } }

        func info() -> ConsoleData.ServerInfo {
            let activity = hub.activitySummary
            return ConsoleData.ServerInfo(
                url: address.withLock { $0 },
                openStreams: activity.openStreams,
                requestsLastMinute: activity.requestsLastMinute,
                lastClient: activity.lastClient
            )
        }
    }

    /// What Settings shows of the server, when there is one.
    private func serverInfo(_ server: RunningServer?) -> (@Sendable () -> ConsoleData.ServerInfo?)? {
        guard let server else { return nil }
        return { server.info() }
    }

    private func startServer(_ session: LabSession) throws -> RunningServer {
        let hub = try session.run { try ServedStateHub(laboratory: session.laboratory) }
        let keys = Set(global.clientKey.map { [$0] } ?? [])
        let server = LabServer(
            hub: hub,
            host: host,
            port: port,
            clientKeys: keys,
            demoPage: DemoPage.contents(),
            access: access.policy(listening: host),
            tokens: try access.tokens()
        )
        let running = RunningServer(hub: hub, server: server, shownHost: host.contains(":") ? "[\(host)]" : host)
        if let reason = running.waitUntilListening() {
            printError("cannot serve on \(host):\(port): \(reason); choose another --port, or leave out --serve")
            throw ExitCode(ExitStatus.unavailable)
        }
        return running
    }
}
