import ArgumentParser
import ConsoleCurses
import Foundation
import Laboratory
import LaboratoryConsole
import LaboratoryRemote

/// `lab console`: the Tweaks-style terminal UI.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Browse experiments and force variants in a live terminal UI.",
        discussion: "Press ? inside for the keys. Honours NO_COLOR."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Seconds between fetches of a --growthbook URL.") var refreshInterval: Int = 30

    func validate() throws {
        guard (1...86_400).contains(refreshInterval) else {
            throw ValidationError("--refresh-interval must be from 1 to 86400 seconds (a day), not \(refreshInterval)")
        }
    }

    func run() throws {
        let session = try LabSession.open(global)
        let environment = LiveConsoleEnvironment(
            manager: session.manager,
            debug: session.debug,
            store: session.store,
            log: session.store,
            origin: global.statePath
        )
        let colors = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(colors: colors)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        defer { terminal.close() }
        // A remote payload is fetched in the background, at once and then on an
        // interval; the screen shows the last good one meanwhile.
        let remote = session.remote.flatMap { $0.file == nil ? $0 : nil }
        let source = session.debug.sources.compactMap { $0 as? GrowthBookSource }.first
        let (manager, interval) = (session.manager, refreshInterval)
        let refresher = remote.map { remote in
            Task.detached {
                var streamer: Task<Void, Never>?
                defer { streamer?.cancel() }
                while !Task.isCancelled {
                    await manager.update()
                    // Once the server offers server-sent events, stream them too.
                    if streamer == nil, let url = remote.streamURL, remote.streaming?.isEnabled == true, let source {
                        source.setTransport("streaming")
                        streamer = Task.detached {
                            await GrowthBookStreamer(url: url).run(
                                payload: { data in
                                    try? source.accept(data)
                                    _ = try? manager.refresh()
                                },
                                refetch: { await manager.update() }
                            )
                        }
                    }
                    try? await Task.sleep(for: .seconds(interval))
                }
            }
        }
        defer { refresher?.cancel() }
        ConsoleRunner(terminal: terminal, environment: environment).run()
    }
}
