import ArgumentParser
import Foundation
import Laboratory

/// `lab`: the Laboratory command line and console.
@main
struct Lab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Inspect and steer Laboratory experiments on this device.",
        discussion: """
            With no --catalog, lab uses the demo catalog in share/laboratory/. \
            The state file (token, draws, forced variants, events) is shared \
            with any app that opens the same path.
            """,
        version: LabVersion.description,
        subcommands: [
            ConsoleCommand.self,
            AssignmentsCommand.self,
            ExperimentsCommand.self,
            ExplainCommand.self,
            ForceCommand.self,
            UnforceCommand.self,
            ResetCommand.self,
            UpdateCommand.self,
            StabilizeCommand.self,
            ReportCommand.self,
            EventsCommand.self,
            OverridesCommand.self,
            CheckCommand.self,
            ServeCommand.self,
            GenerateDocsCommand.self,
        ]
    )

    /// Runs the command line; a mistyped command gets a suggestion rather
    /// than "Unexpected argument".
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let typed = arguments.first, !typed.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if case .missing(let suggestions) = NameMatch.find(typed, in: names) {
                printError("no command named \"\(typed)\"" + NameMatch.hint(suggestions) + " (lab --help lists them)")
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
