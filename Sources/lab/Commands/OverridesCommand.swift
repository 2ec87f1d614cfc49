import ArgumentParser
import Foundation
import Laboratory

/// `lab overrides export|import`: forced variants and attributes as a file.
struct OverridesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overrides",
        abstract: "Save forced variants and attributes to a file, or apply such a file.",
        subcommands: [OverridesExportCommand.self, OverridesImportCommand.self]
    )
}
