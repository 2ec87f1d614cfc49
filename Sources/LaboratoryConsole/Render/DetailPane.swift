import Foundation
import GrowthBook
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

        // What the device runs, and why: the same explanation as `lab explain`.
        let current = entry.effective?.variant.name
        var now = "Now: \(current ?? DebugSource.inactiveChoice)"
        if entry.isForced { now += " (forced)" }
        // A variant that lost a conflict reaches the app with none of its keys: say who won.
        if current != nil,
            let lost = entry.conflicts(in: data.snapshot).first(where: {
                $0.loser.source == entry.source && $0.loser.experiment == experiment.name
            })
        {
            now += ", set aside: \(lost.winner.source)/\(lost.winner.experiment) wins"
        }
        lines.append(Line(now, CellStyle(role: entry.isForced ? .forced : .plain, bold: true)))
        let explanation = Explanation(
            entry: entry,
            snapshot: data.snapshot,
            device: data.device,
            userID: data.userID,
            draw: data.draws[entry.source]?[experiment.name],
            stabilizedAt: data.sources.first { $0.name == entry.source }?.stabilizedAt,
            decisionSteps: data.decisionSteps[entry.source]?[experiment.name],
            time: { TimeText.clock($0, timeZone: state.timeZone) }
        )
        for step in explanation.steps where step.label != "experiment" && step.label != "subject" {
            let role: CellStyle.Role =
                switch step.label {
                case "forced": .forced
                case "conflict": .conflict
                case "resolved", "whitelist": .accent
                case "result": .plain
                default: .muted
                }
            lines.append(Line("\(step.label): \(step.detail)", CellStyle(role: role, bold: step.label == "conflict")))
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
        lines.append(
            Line(
                String(format: "weight %@ · share %.1f %%", AssignmentValue.number(variant.weight).description, share),
                .muted
            )
        )
        lines += assignments(of: variant)
        return lines
    }

    /// Each key and its value; a JSON value (a GrowthBook feature's object or
    /// array) pretty-printed below its key, so it reads as JSON, not as a string of it.
    private static func assignments(of variant: Variant) -> [Line] {
        variant.assignments.keys.sorted().flatMap { key -> [Line] in
            guard case .json(let value) = variant.assignments[key]!, value != .null else {
                return [Line("  \(key) = \(variant.assignments[key]!)")]
            }
            let json = value.prettyText.split(separator: "\n", omittingEmptySubsequences: false)
            return [Line("  \(key) =")] + json.map { Line("    " + $0) }
        }
    }
}
