import ArgumentParser
import Foundation
import Laboratory
import LaboratoryRuntime

/// `lab overrides export [PATH]`.
struct OverridesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the forced variants and attributes as JSON (to standard output by default)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write.") var path: String?
    @OptionGroup var connect: ConnectOptions

    func run() throws {
        let file: OverridesFile
        if let connection = connect.connection {
            file = try RemoteChange.reporting { try connection.exportOverrides() }
        } else {
            let session = try LabSession.open(global)
            // The stored attributes, with this run's `--attribute`s over them.
            file = try session.run {
                try session.debug.exportOverrides(
                    attributes: try session.store.storedAttributes().merging(session.attributes) { _, given in given }
                )
            }
        }
        let data = file.encoded()
        guard let path else {
            return StandardStreams.write(
                Data(TerminalText.json(String(decoding: data, as: UTF8.self)).utf8),
                to: STDOUT_FILENO
            )
        }
        do {
            // It holds user ids: private to the user, like the state file.
            try PrivateFile.write(data, to: path)
        } catch {
            printError("\(path): cannot write: \(error)")
            throw ExitCode(ExitStatus.ioError)
        }
        printLine(
            "Wrote \(file.forcedVariants.count) forced variant\(file.forcedVariants.count == 1 ? "" : "s") to \(path)."
        )
    }
}
