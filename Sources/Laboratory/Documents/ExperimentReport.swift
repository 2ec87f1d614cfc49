import Foundation
import GrowthBook

/// One experiment in `lab experiments`.
public struct ExperimentReport: Codable, Sendable {
    public struct ConflictReport: Codable, Sendable {
        public var keys: [String]
        public var source: String
        public var experiment: String
        /// Whether this experiment is the one the app gets.
        public var wins: Bool
    }

    public var source: String
    public var name: String
    public var active: Bool
    public var variant: String?
    public var forced: Bool
    /// Every forced variant of the experiment, for any scope, with who set it
    /// and when, the one that would win first.
    public var forcedVariants: [ForcedVariant]
    public var variants: [String]
    public var tokenRange: HalfOpenRange?
    public var conflicts: [ConflictReport]
    /// `device` or `user`.
    public var subject: Subject
    /// `random` or `hash`.
    public var bucketing: Bucketing
    /// Why the source runs its variant here: drawn, hashed, whitelisted, resolved.
    public var basis: ActiveVariant.Basis?
    /// `running` or `resolved`.
    public var status: String
    public var winner: String?

    public init(entry: DebugEntry, snapshot: AssignmentsSnapshot) {
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
    public func notes(token: ActiveExperimentsToken) -> String {
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
