import Foundation
import Laboratory

/// The pane beside the experiment list: what the highlighted experiment or
/// variant assigns, its weight and share, token range, conflicts and why it
/// is what it is on this device.
enum DetailPane {
    struct Line {
        var text: String
        var style: CellStyle

        init(_ text: String, _ style: CellStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    static func lines(for state: ConsoleState) -> [Line] {
        let rows = state.rows
        let row = rows.indices.contains(state.frame.cursor) ? rows[state.frame.cursor] : nil
        switch (state.route, row?.target) {
        case (.experiments, .experiment(let source, let name)?):
            guard let entry = state.data.entry(source: source, experiment: name) else { return [] }
            return experiment(entry, showing: nil, state: state)
        case (.variants(let source, let name), .choice(let variant)?):
            guard let entry = state.data.entry(source: source, experiment: name) else { return [] }
            return experiment(entry, showing: .some(variant), state: state)
        default:
            return [Line("Highlight an experiment to see its details.", .muted)]
        }
    }

    /// - Parameter showing: the variant to describe (`.some(nil)` is Inactive);
    ///   `nil` describes what the device runs now.
    private static func experiment(_ entry: DebugEntry, showing: String??, state: ConsoleState) -> [Line] {
        let data = state.data
        let experiment = entry.experiment
        var lines = [
            Line(experiment.name, .header),
            Line("source \(entry.source) · baseline \(experiment.baseline)", .muted),
            Line("\(experiment.subject.rawValue)-level · \(experiment.bucketing.rawValue) bucketing", .muted),
        ]

        // What the device runs, and why.
        let current = entry.effective?.variant.name
        var now = "Now: \(current ?? DebugSource.inactiveChoice)"
        if entry.isForced { now += " (forced)" }
        lines.append(Line(now, CellStyle(role: entry.isForced ? .forced : .plain, bold: true)))
        if let winner = experiment.winner {
            lines.append(Line(
                entry.isForced ? "resolved (winner \(winner)), forced here for QA" : "resolved: everyone gets \(winner)",
                CellStyle(role: entry.isForced ? .forced : .accent)))
        }
        if entry.natural?.basis == .whitelisted {
            lines.append(Line("whitelisted: this subject is pinned to \(entry.natural!.variant.name)", CellStyle(role: .accent)))
        }
        if let request = entry.request, entry.isStale {
            lines.append(Line("stale request for \"\(request.variant ?? "")\" is ignored", CellStyle(role: .conflict)))
        }
        if let draw = data.draws[entry.source]?[experiment.name] {
            lines.append(Line("drawn \(draw.variant) at \(TimeText.clock(draw.madeAt, timeZone: state.timeZone))", .muted))
        } else {
            lines.append(Line("no draw on this device", .muted))
        }
        if let range = experiment.activeTokenRange {
            let inside = range.contains(data.token)
            lines.append(Line(
                "token range \(range): token \(String(format: "%.4f", data.token.value)) is \(inside ? "inside" : "outside")",
                CellStyle(role: inside ? .plain : .inactive)))
        } else {
            lines.append(Line("no token range: runs on every device", .muted))
        }
        if let stabilized = data.sources.first(where: { $0.name == entry.source })?.stabilizedAt {
            lines.append(Line("stabilized since \(TimeText.clock(stabilized, timeZone: state.timeZone))", .muted))
        }
        for conflict in entry.conflicts(in: data.snapshot) {
            let wins = conflict.winner.source == entry.source && conflict.winner.experiment == experiment.name
            let other = wins ? conflict.loser : conflict.winner
            let keys = conflict.keys.joined(separator: ", ")
            lines.append(Line(
                wins ? "conflict: wins \(keys) over \(other.source)/\(other.experiment)"
                    : "conflict: set aside, \(other.source)/\(other.experiment) wins \(keys)",
                CellStyle(role: .conflict, bold: true)))
        }
        lines.append(Line(""))

        // The variant described: the highlighted choice, or the current one.
        let name: String? = showing ?? current
        guard let name, let variant = experiment.variant(named: name) else {
            lines.append(Line("Inactive: the app uses its baseline", .header))
            if let baseline = experiment.variant(named: experiment.baseline) {
                lines += assignments(of: baseline)
            }
            return lines
        }
        let share = experiment.share(of: variant) * 100
        lines.append(Line("Variant \(variant.name)", .header))
        lines.append(Line(String(format: "weight %@ · share %.1f %%", AssignmentValue.number(variant.weight).description, share), .muted))
        lines += assignments(of: variant)
        return lines
    }

    private static func assignments(of variant: Variant) -> [Line] {
        variant.assignments.keys.sorted().map { key in Line("  \(key) = \(variant.assignments[key]!)") }
    }
}
