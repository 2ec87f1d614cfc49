import Laboratory
import LaboratoryConsole

/// The demo app's subscribe screen: font colour and size, prompt image and
/// button colour come from assignments, with the app's own baselines.
struct SubscribeScreen {
    static let keys = [
        "subscribeScreenFontColor", "subscribeScreenFontSize", "subscribePromptImage", "subscribeButtonColor",
    ]

    /// Whether to use ANSI colours (off for `NO_COLOR` and when not on a terminal).
    let colors: Bool
    /// Whether to say which keys do what (only to a person at a terminal).
    let hints: Bool
    /// How wide the terminal is: long lines wrap between words to fit it.
    var columns = 80

    func draw(_ snapshot: AssignmentsSnapshot) -> String {
        // Each value falls back to the baseline when its experiment is not active.
        let fontColor = snapshot.assignment(for: "subscribeScreenFontColor")?.value.stringValue ?? "blue"
        let fontSize = snapshot.assignment(for: "subscribeScreenFontSize")?.value.numberValue ?? 10
        // Values are the catalog's or a payload's: shown as text, never sent to the terminal as they are.
        let image = TerminalText.field(
            snapshot.assignment(for: "subscribePromptImage")?.value.stringValue ?? "mountains.png"
        )
        let buttonColor = snapshot.assignment(for: "subscribeButtonColor")?.value.stringValue ?? "red"

        let width = 46
        let title = fontSize >= 12 ? "G O   P R E M I U M" : "Go Premium"
        var lines = [
            "┌" + String(repeating: "─", count: width) + "┐",
            row("", width),
            row(
                paint(center(title, width), foreground: fontColor, bold: fontSize >= 12),
                width,
                visible: center(title, width)
            ),
            row("", width),
            row(center("[ picture: \(image) ]", width), width),
            row(center("Unlock every filter and effect.", width), width),
            row("", width),
            row(
                paint(center("  Subscribe  ", width), background: buttonColor),
                width,
                visible: center("  Subscribe  ", width)
            ),
            row("", width),
            "└" + String(repeating: "─", count: width) + "┘",
            "",
        ]
        // QA's doing is said as such, so nobody mistakes a forced variant for what users get.
        let forced = snapshot.active.filter {
            $0.forced && !Set($0.variant.assignments.keys).isDisjoint(with: Self.keys)
        }
        if !forced.isEmpty {
            let names = forced.map { TerminalText.field("\($0.experiment.name) → \($0.variant.name)") }
            lines.insert(
                paint("forced by QA", foreground: "yellow", bold: true) + ": " + names.joined(separator: ", "),
                at: lines.count - 1
            )
        }
        var notes: [String] = []
        for key in Self.keys {
            if let assignment = snapshot.assignment(for: key) {
                let shown = [assignment.value.description, assignment.experiment, assignment.variant].map(
                    TerminalText.field
                )
                let isForced = forced.contains { $0.experiment.name == assignment.experiment }
                notes.append(
                    "  \(key) = \(shown[0])   (\(shown[1]) / \(shown[2])\(isForced ? ", forced by QA" : ""))"
                )
            } else {
                notes.append("  \(key): baseline")
            }
        }
        if hints {
            notes.append("")
            notes.append("Force variants with `lab console` in another terminal; Ctrl-C quits.")
        }
        // Wrapped between words (a terminal breaks lines inside them), continued under the value.
        lines += notes.flatMap { DisplayText.wrap($0, to: columns, indent: 6) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func row(_ text: String, _ width: Int, visible: String? = nil) -> String {
        let shown = visible ?? text
        return "│" + text + String(repeating: " ", count: max(0, width - shown.count)) + "│"
    }

    private func center(_ text: String, _ width: Int) -> String {
        let left = max(0, (width - text.count) / 2)
        return String(repeating: " ", count: left) + text
    }

    private func paint(
        _ text: String,
        foreground: String? = nil,
        background: String? = nil,
        bold: Bool = false
    ) -> String {
        guard colors else { return text }
        var codes: [String] = []
        if bold { codes.append("1") }
        if let foreground, let code = Self.ansi[foreground] { codes.append(String(30 + code)) }
        let trimmed = text.drop { $0 == " " }
        let indent = String(repeating: " ", count: text.count - trimmed.count)
        if let background, let code = Self.ansi[background] { codes.append(String(40 + code)) }
        guard !codes.isEmpty else { return text }
        return indent + "\u{1B}[\(codes.joined(separator: ";"))m" + trimmed + "\u{1B}[0m"
    }

    /// Colour names in the demo catalog → ANSI offsets (bright grey is 60 + 0).
    private static let ansi: [String: Int] = [
        "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "darkGray": 60,
    ]
}
