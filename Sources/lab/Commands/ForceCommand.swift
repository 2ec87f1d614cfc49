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
        let (forcedVariant, snapshot) = try session.run {
            let forcedVariant = try session.debug.force(variant: variant, of: experiment, in: source)
            return (forcedVariant, try session.manager.refresh())
        }
        try session.warnWhereForcingIsIgnored()
        try ChangeDocument.print(
            forcedVariant.variant.map { "Forced \(forcedVariant.experiment) to \($0)." }
                ?? "Forced \(forcedVariant.experiment) inactive.",
            snapshot: snapshot,
            json: json
        )
    }
}
