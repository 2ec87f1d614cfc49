import ArgumentParser

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
}
