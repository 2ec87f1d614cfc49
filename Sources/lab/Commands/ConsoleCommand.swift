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
        ConsoleRunner(terminal: terminal, environment: environment).run()
    }
}
