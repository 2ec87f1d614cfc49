import Foundation
import GrowthBook

/// One experiment in `lab experiments`.
package struct ExperimentReport: Codable, Sendable {
    package struct ConflictReport: Codable, Sendable {
        package var keys: [String]
        package var source: String
        package var experiment: String
        /// Whether this experiment is the one the app gets.
        package var wins: Bool
    }

    package var source: String
    package var name: String
    package var active: Bool
    package var variant: String?
    package var forced: Bool
    /// Every forced variant of the experiment, for any scope, with who set it
    /// and when, the one that would win first.
    package var forcedVariants: [ForcedVariant]
    package var variants: [String]
    package var tokenRange: HalfOpenRange?
    package var conflicts: [ConflictReport]
    /// `device` or `user`.
    package var subject: Subject
    /// `random` or `hash`.
    package var bucketing: Bucketing
    /// Why the source runs its variant here: drawn, hashed, whitelisted, resolved.
    package var basis: ActiveVariant.Basis?
    /// `running` or `resolved`.
    package var status: String
    package var winner: String?

    package init(entry: DebugEntry, snapshot: AssignmentsSnapshot) {
        source = entry.source
        name = entry.experiment.name
        let effective = entry.effective
        active = effective != nil
        variant = effective?.variant.name
        forced = entry.isForced
        forcedVariants = entry.forcedVariants
        variants = entry.experiment.variants.map(\.name)
        tokenRange = entry.experiment.activeTokenRange
        subject = entry.experiment.subject
        bucketing = entry.experiment.bucketing
        basis = effective?.basis
        status = entry.experiment.isResolved ? "resolved" : "running"
        winner = entry.experiment.winner
        conflicts = snapshot.conflicts(involving: entry.source, entry.experiment.name).map { conflict in
            let wins = conflict.winner.source == entry.source && conflict.winner.experiment == entry.experiment.name
            let other = wins ? conflict.loser : conflict.winner
            return ConflictReport(keys: conflict.keys, source: other.source, experiment: other.experiment, wins: wins)
        }
    }

    /// Short remarks for the text table: forced, range, conflicts.
    package func notes(token: ActiveExperimentsToken) -> String {
        var notes: [String] = []
        if subject == .user { notes.append("user-level") }
        if bucketing == .hash { notes.append("hash") }
        if let winner { notes.append("resolved: \(winner)") }
        if basis == .whitelisted { notes.append("whitelisted") }
        if forced { notes.append(active ? "forced" : "forced inactive") }
        for scoped in forcedVariants where !scoped.scope.isEveryone {
            notes.append("\(scoped.variant ?? DebugSource.inactiveChoice) for \(scoped.scope)")
        }
        if let tokenRange, !forced {
            notes.append("range \(tokenRange)" + (tokenRange.contains(token) ? "" : ", token outside"))
        }
        for conflict in conflicts {
            notes.append(
                conflict.wins
                    ? "wins \(conflict.keys.joined(separator: ",")) over \(conflict.experiment)"
                    : "set aside: \(conflict.experiment) has \(conflict.keys.joined(separator: ","))"
            )
        }
        return notes.joined(separator: "; ")
    }
}
