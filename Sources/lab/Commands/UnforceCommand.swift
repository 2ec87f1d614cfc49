import ArgumentParser

/// `lab unforce EXPERIMENT`: drop the forced variant of one experiment.
struct UnforceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unforce",
        abstract: "Drop the forced variant of an experiment, so its source decides again."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The experiment.") var experiment: String
    @Option(help: "The source of the experiment, when several have one of that name.") var source: String?
    @OptionGroup var scope: ScopeOption
    @OptionGroup var connect: ConnectOptions
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        if let connection = connect.connection {
            return try RemoteChange.print(json: json) {
                try connection.unforce(experiment, in: source, scope: scope.scope)
            }
        }
        let session = try LabSession.open(global)
        let outcome = try session.run { try session.steering.unforce(experiment, in: source, scope: scope.scope) }
        try ChangeDocument.print(outcome, json: json)
    }
}
