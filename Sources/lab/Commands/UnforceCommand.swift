import ArgumentParser

/// `lab unforce EXPERIMENT`: drop the forced variant of one experiment.
struct UnforceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unforce", abstract: "Drop the forced variant of an experiment, so its source decides again.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The experiment.") var experiment: String
    @Option(help: "The source of the experiment, when several have one of that name.") var source: String?

    func run() throws {
        let session = try LabSession.open(global)
        try session.run {
            try session.debug.removeRequest(experiment: experiment, in: source)
            try session.manager.refresh()
        }
        printLine("\(experiment) is no longer forced.")
    }
}
