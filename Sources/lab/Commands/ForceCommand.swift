import ArgumentParser
import Laboratory

/// `lab force EXPERIMENT VARIANT`: what the console's force does.
struct ForceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "force",
        abstract: "Force a variant of an experiment (or \(DebugSource.inactiveChoice) to deactivate it)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The experiment.") var experiment: String
    @Argument(help: "The variant, or \(DebugSource.inactiveChoice).") var variant: String
    @Option(help: "The source of the experiment, when several have one of that name.") var source: String?
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let snapshot = try session.run {
            try session.debug.activate(variant: variant, of: experiment, in: source)
            return try session.manager.refresh()
        }
        try ChangeDocument.print(
            variant == DebugSource.inactiveChoice
                ? "Forced \(experiment) inactive." : "Forced \(experiment) to \(variant).",
            snapshot: snapshot,
            json: json
        )
    }
}
