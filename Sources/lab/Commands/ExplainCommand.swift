import ArgumentParser
import Foundation
import Laboratory

/// `lab explain EXPERIMENT`: why this device gets what it gets.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain, step by step, why this device gets what it gets for an experiment."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The experiment.") var experiment: String
    @Option(help: "The source of the experiment, when several have one of that name.") var source: String?
    @OptionGroup(title: "Explain for a user") var scope: ScopeOption
    @OptionGroup var connect: ConnectOptions
    @Flag(help: "Print one JSON document.") var json = false

    func run() throws {
        let explanation =
            try connect.connection.map { connection in
                try RemoteChange.reporting {
                    try connection.explanation(of: experiment, in: source, scope: scope.scope)
                }
            } ?? localExplanation()
        if json { return try JSONOutput.print(explanation) }
        printLine(ExperimentID(source: explanation.source, name: explanation.experiment).description)
        let width = explanation.steps.map(\.label.count).max() ?? 0
        for step in explanation.steps {
            printLine("  " + step.label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + step.detail)
        }
    }

    private func localExplanation() throws -> Explanation {
        let session = try LabSession.open(global)
        // For a user of the scope: its attributes are theirs, so their scoped forced variants apply.
        session.debug.useAttributes(session.attributes.merging(scope.scope.attributes) { _, scoped in scoped })
        return try session.run { () throws -> Explanation in
            try session.debug.explanation(
                of: experiment,
                in: source,
                snapshot: try session.manager.refresh(),
                device: session.device
            ).explanation
        }
    }
}
