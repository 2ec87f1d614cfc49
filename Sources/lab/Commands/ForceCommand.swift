import ArgumentParser
import Laboratory

/// `lab force EXPERIMENT VARIANT`: what the console's force does.
struct ForceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "force",
        abstract: "Force a variant of an experiment (or \(DebugSource.inactiveChoice) to deactivate it).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The experiment.") var experiment: String
    @Argument(help: "The variant, or \(DebugSource.inactiveChoice).") var variant: String
    @Option(help: "The source of the experiment, when several have one of that name.") var source: String?

    func run() throws {
        let session = try LabSession.open(global)
        try session.run {
            try session.debug.activate(variant: variant, of: experiment, in: source)
            try session.manager.refresh()
        }
        printLine(variant == DebugSource.inactiveChoice
            ? "Forced \(experiment) inactive." : "Forced \(experiment) to \(variant).")
    }
}
