import ArgumentParser
import ConsoleCurses
import Foundation
import LaboratoryConsole

/// `lab console`: the Tweaks-style terminal UI.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Browse experiments and force variants in a live terminal UI.",
        discussion: "Press ? inside for the keys. Honours NO_COLOR.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Seconds between fetches of a --growthbook URL.") var refreshInterval: Int = 30

    func validate() throws {
        guard refreshInterval > 0 else { throw ValidationError("--refresh-interval must be positive") }
    }

    func run() throws {
        let session = try LabSession.open(global)
        let environment = LiveConsoleEnvironment(
            manager: session.manager, debug: session.debug, store: session.store, log: session.store,
            origin: global.statePath)
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
        let refresher = global.growthbook.map { target -> Task<Void, Never> in
            let (manager, interval) = (session.manager, refreshInterval)
            let remote = target.hasPrefix("http://") || target.hasPrefix("https://")
            return Task.detached {
                guard remote else { return }
                while !Task.isCancelled {
                    await manager.update()
                    try? await Task.sleep(for: .seconds(interval))
                }
            }
        }
        defer { refresher?.cancel() }
        ConsoleRunner(terminal: terminal, environment: environment).run()
    }
}
