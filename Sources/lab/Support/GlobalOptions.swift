import ArgumentParser
import Foundation

/// The options every command that opens the experiments takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp("A local catalog file (repeatable); the demo catalog when none is given.", valueName: "path"))
    var catalogs: [String] = []

    @Option(
        help: ArgumentHelp(
            "The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).", valueName: "path"))
    var state: String?

    /// The state file path: `--state`, else under `$XDG_STATE_HOME`, else `~/.local/state`.
    var statePath: String {
        if let state { return state }
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return base + "/laboratory/default.sqlite"
    }
}
