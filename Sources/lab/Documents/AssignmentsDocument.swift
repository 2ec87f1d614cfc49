import ArgumentParser
import Laboratory

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
