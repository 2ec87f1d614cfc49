/// The help overlay and the key bar.
enum HelpText {
    static let lines = [
        "↑ ↓  j k        move",
        "PgUp PgDn       move a page",
        "Home End  g G   first / last row",
        "Enter → l       open, or choose (forces the variant)",
        "Esc ← h  ⌫      back (Esc first clears a filter)",
        "/               filter names as you type (marks the match)",
        "d               drop the forced variant of this experiment",
        "r               reset: drop forced variants (asks first)",
        "u               update: fetch the sources again",
        "f               Events: next reason to show",
        "p               detail pane: wider, hidden, back",
        "click           select a row; click it again to open",
        "wheel           move three rows",
        "?               this help",
        "q  Ctrl-C       quit",
        "Ctrl-Z          suspend to the shell; fg comes back",
        "",
        "Flags: F forced · ! conflict · ? stale forced variant · S stabilized",
        "       R resolved (everyone gets the winner) · W whitelisted here",
        "Press any key to close.",
    ]

    /// The key bar's hints, most useful first; `? help` and `q quit` always end it.
    static func keyBarItems(for state: ConsoleState) -> [String] {
        let items: [String]
        switch state.route {
        case .main: items = ["↑↓ move", "⏎ open", "r reset all", "u update"]
        case .experiments:
            items = ["↑↓ move", "⏎ open", "← back", "/ filter", "d unforce", "r reset", "u update", "p pane"]
        case .variants: items = ["↑↓ move", "⏎ force", "← back", "/ filter", "d unforce", "p pane"]
        case .assignments: items = ["↑↓ move", "⏎ open experiment", "← back", "/ filter"]
        case .events: items = ["↑↓ move", "← back", "/ filter", "f reason"]
        case .settings: items = ["↑↓ move", "⏎ choose", "← back", "r reset source", "u update"]
        }
        return items + ["? help", "q quit"]
    }

    /// The key bar in `width` columns: the least useful hints go first when
    /// they do not all fit (the help lists every key).
    static func keyBar(for state: ConsoleState, width: Int) -> String {
        var items = keyBarItems(for: state)
        var text = items.joined(separator: "  ")
        while items.count > 2, TextWidth.of(text) > width {
            items.remove(at: items.count - 3)
            text = items.joined(separator: "  ")
        }
        return text
    }
}
