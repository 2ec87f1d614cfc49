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
    @Flag(help: "Print one JSON document: the message and the assignments the app now gets.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let snapshot = try session.run {
            try session.debug.unforce(experiment: experiment, in: source)
            return try session.manager.refresh()
        }
        try ChangeDocument.print("\(experiment) is no longer forced.", snapshot: snapshot, json: json)
    }
}
