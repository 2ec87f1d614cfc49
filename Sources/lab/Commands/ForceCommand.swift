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
    @OptionGroup var scope: ScopeOption
    @OptionGroup var connect: ConnectOptions
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        if let connection = connect.connection {
            return try RemoteChange.print(json: json) {
                try connection.force(variant, of: experiment, in: source, scope: scope.scope)
            }
        }
        let session = try LabSession.open(global)
        let outcome = try session.run {
            try session.steering.force(variant, of: experiment, in: source, scope: scope.scope, tester: session.tester)
        }
        try ChangeDocument.print(outcome, json: json)
    }
}
