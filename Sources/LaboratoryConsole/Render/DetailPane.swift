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
        case (.events, .event(let id)?):
            guard let recorded = state.data.events.first(where: { $0.id == id }) else { return [] }
            return event(recorded, state: state)
        case (.events, _):
            return [Line("Highlight an event to see every field of it.", .muted)]
        default:
            return [Line("Highlight an experiment to see its details.", .muted)]
        }
    }

    /// The pane's lines wrapped to its width, as drawn before scrolling.
    static func wrappedLines(for state: ConsoleState) -> [Line] {
        let width = state.layout.paneColumns(for: state.route).width
        return lines(for: state).flatMap { line in
            DisplayText.wrap(DisplayText.sanitize(line.text), to: width, indent: line.text.hasPrefix("  ") ? 4 : 2)
                .map { Line($0, line.style) }
        }
    }

    /// The furthest the pane scrolls: the last line at the bottom, below `▲ more`.
    static func maximumScroll(lineCount: Int, height: Int) -> Int {
        lineCount <= height ? 0 : lineCount - (height - 1)
    }

    /// What the pane shows at its scroll: the lines in view, with `▲ more`
    /// above when lines are scrolled away and `▼ more` below when lines are
    /// cut, so a cut pane never looks whole.
    static func window(_ lines: [Line], scroll: Int, height: Int, focused: Bool) -> [Line] {
        guard lines.count > height, height >= 3 else { return Array(lines.prefix(height)) }
        let scroll = min(max(0, scroll), maximumScroll(lineCount: lines.count, height: height))
        var shown: [Line] = []
        if scroll > 0 { shown.append(Line("▲ more", CellStyle(role: .accent, bold: true))) }
        let room = height - shown.count
        let rest = lines.dropFirst(scroll)
        if rest.count > room {
            shown += rest.prefix(room - 1)
            let hint = focused ? "▼ more (↓ PgDn)" : "▼ more (Tab or Shift-↓ to scroll)"
            shown.append(Line(hint, CellStyle(role: .accent, bold: true)))
        } else {
            shown += rest
        }
        return shown
    }

    /// Every field of an event, as the table stores it.
    private static func event(_ recorded: RecordedEvent, state: ConsoleState) -> [Line] {
        let event = recorded.event
        var lines = [
            Line("Event \(recorded.id)", .header),
            Line(
                "time: \(TimeText.clock(event.time, timeZone: state.timeZone)) · \(Timestamp.iso8601(event.time))",
                .muted
            ),
            Line("reason: \(event.reason)"),
            Line("device: \(event.device)"),
            Line("source: \(event.source)"),
            Line("experiment: \(event.experiment)"),
            Line("variant: \(event.variant)"),
            Line("key: \(event.key)"),
        ]
        if case .json(let value) = event.value, value != .null {
            lines.append(Line("value:"))
            lines += value.prettyText.split(separator: "\n", omittingEmptySubsequences: false).map { Line("    " + $0) }
        } else {
            lines.append(Line("value: \(event.value)"))
        }
        if event.forced {
            let who = event.tester.map { " by \($0)" } ?? ""
            lines.append(
                Line("forced: yes\(who): QA's exposure, not experiment data", CellStyle(role: .forced, bold: true))
            )
        } else {
            lines.append(Line("forced: no: the variant came from the experiment's rules", .muted))
        }
        return lines
    }

    /// - Parameter showing: the variant to describe (`.some(nil)` is Inactive);
    ///   `nil` describes what the device runs now.
    private static func experiment(_ entry: DebugEntry, showing: String??, state: ConsoleState) -> [Line] {
        let data = state.data
        let experiment = entry.experiment
        var lines = [Line(experiment.name, .header)]
        if let title = experiment.title { lines.append(Line("“\(title)”", CellStyle(role: .accent))) }
        lines += [
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
            now += ", set aside: \(lost.winner.experimentID) wins"
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
            lines.append(Line("\(DebugSource.inactiveChoice): the app uses its baseline", .header))
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
        variant.assignments.flatMap { key, value -> [Line] in
            guard case .json(let json) = value, json != .null else {
                return [Line("  \(key) = \(value)")]
            }
            let lines = json.prettyText.split(separator: "\n", omittingEmptySubsequences: false)
            return [Line("  \(key) =")] + lines.map { Line("    " + $0) }
        }
    }
}
