import ArgumentParser
import LaboratorySQLite

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

    /// The state file path: `--state`, else the default under `$XDG_STATE_HOME`.
    var statePath: String { state ?? LocalLaboratory.defaultStatePath() }
}
