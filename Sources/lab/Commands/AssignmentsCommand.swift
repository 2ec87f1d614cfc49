import ArgumentParser
import Laboratory

/// `lab assignments`: the active assignments, as the app would see them.
struct AssignmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assignments",
        abstract: "Show the active assignments, as the app would see them."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON document.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let snapshot = try session.run { try session.manager.refresh() }
        if json {
            try JSONOutput.print(
                AssignmentsDocument(
                    assignments: snapshot.assignments,
                    conflicts: snapshot.conflicts.map(AssignmentsDocument.ConflictReport.init)
                )
            )
            return
        }
        guard !snapshot.assignments.isEmpty else {
            printLine("No active assignments: the app uses its baselines.")
            return
        }
        let rows = snapshot.assignments.map {
            [$0.key, $0.value.description, $0.experiment, $0.variant, $0.source]
        }
        printLines(TextTable.lines(header: ["KEY", "VALUE", "EXPERIMENT", "VARIANT", "SOURCE"], rows: rows))
        for conflict in snapshot.conflicts {
            printLine("conflict: \(conflict)")
        }
    }
}
