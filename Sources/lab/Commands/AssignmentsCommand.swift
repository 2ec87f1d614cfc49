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
        printLine(TextTable.render(header: ["KEY", "VALUE", "EXPERIMENT", "VARIANT", "SOURCE"], rows: rows))
        for conflict in snapshot.conflicts {
            printLine("conflict: \(conflict)")
        }
    }
}

/// The `--json` shape: `{"assignments": [{key, value, experiment, variant, source}],
/// "conflicts": [{keys, winner, loser}]}`, the conflicts as the table prints them.
struct AssignmentsDocument: Encodable {
    var assignments: [Assignment]
    var conflicts: [ConflictReport]

    /// Two active experiments that share keys: the app gets the winner's.
    struct ConflictReport: Encodable {
        struct Party: Encodable {
            var source: String
            var experiment: String
            var variant: String
            var forced: Bool

            init(_ party: Conflict.Party) {
                source = party.source
                experiment = party.experiment
                variant = party.variant
                forced = party.forced
            }
        }

        var keys: [String]
        var winner: Party
        var loser: Party

        init(_ conflict: Conflict) {
            keys = conflict.keys
            winner = Party(conflict.winner)
            loser = Party(conflict.loser)
        }
    }
}
