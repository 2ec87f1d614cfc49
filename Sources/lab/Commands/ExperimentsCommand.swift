import ArgumentParser
import Foundation
import Laboratory

/// `lab experiments`: every experiment of every source, with its state here.
struct ExperimentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiments",
        abstract: "Show every experiment of every source, with its state on this device."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one JSON document.") var json = false

    func run() throws {
        let session = try LabSession.open(global)
        let (entries, snapshot, stale) = try session.run {
            let snapshot = try session.manager.refresh()
            return (try session.debug.entries(), snapshot, try session.debug.staleForcedVariants())
        }
        let reports = entries.map { ExperimentReport(entry: $0, snapshot: snapshot) }
        if json {
            var stabilized: [String: Date] = [:]
            for source in session.debug.sources {
                if let date = try session.run({ try source.stabilization() }) { stabilized[source.name] = date }
            }
            try JSONOutput.print(
                ExperimentsDocument(
                    token: session.device.token.value,
                    stabilized: stabilized,
                    experiments: reports,
                    staleForcedVariants: stale.map { StaleReport(request: $0) }
                )
            )
            return
        }
        printLine("token \(session.device.token.value)")
        for source in session.debug.sources {
            printLine("")
            let stabilized = try session.run { try source.stabilization() }
            printLine(
                source.name
                    + (stabilized.map {
                        " (stabilized since \(Timestamp.iso8601($0)): no new draws or experiments here)"
                    } ?? "")
            )
            let rows = reports.filter { $0.source == source.name }.map { report in
                [" ", report.name, report.variant ?? "Inactive", report.notes(token: session.device.token)]
            }
            printLine(TextTable.render(header: [" ", "EXPERIMENT", "VARIANT", "NOTES"], rows: rows))
        }
        for request in stale {
            printLine(
                "stale forced variant: \(request.forcedVariant.source)/\(request.forcedVariant.experiment): \(request.reason)"
            )
        }
    }
}

/// The `--json` shape of `lab experiments`.
struct ExperimentsDocument: Encodable {
    var token: Double
    /// Source → since when it is stabilized on this device; absent when not.
    var stabilized: [String: Date]
    var experiments: [ExperimentReport]
    var staleForcedVariants: [StaleReport]
}

/// One experiment in `lab experiments`.
struct ExperimentReport: Encodable {
    struct ConflictReport: Encodable {
        var keys: [String]
        var source: String
        var experiment: String
        /// Whether this experiment is the one the app gets.
        var wins: Bool
    }

    var source: String
    var name: String
    var active: Bool
    var variant: String?
    var forced: Bool
    var variants: [String]
    var tokenRange: HalfOpenRange?
    var conflicts: [ConflictReport]
    /// `device` or `user`.
    var subject: Subject
    /// `random` or `hash`.
    var bucketing: Bucketing
    /// Why the source runs its variant here: drawn, hashed, whitelisted, resolved.
    var basis: ActiveVariant.Basis?
    /// `running` or `resolved`.
    var status: String
    var winner: String?

    init(entry: DebugEntry, snapshot: AssignmentsSnapshot) {
        source = entry.source
        name = entry.experiment.name
        let effective = entry.effective
        active = effective != nil
        variant = effective?.variant.name
        forced = entry.isForced
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
    func notes(token: ActiveExperimentsToken) -> String {
        var notes: [String] = []
        if subject == .user { notes.append("user-level") }
        if bucketing == .hash { notes.append("hash") }
        if let winner { notes.append("resolved: \(winner)") }
        if basis == .whitelisted { notes.append("whitelisted") }
        if forced { notes.append(active ? "forced" : "forced inactive") }
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

/// A forced variant that is not applied, in `lab experiments --json`.
struct StaleReport: Encodable {
    var source: String
    var experiment: String
    var variant: String?
    var reason: String

    init(request: StaleForcedVariant) {
        source = request.forcedVariant.source
        experiment = request.forcedVariant.experiment
        variant = request.forcedVariant.variant
        reason = request.reason
    }
}
