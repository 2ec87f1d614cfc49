/// The help overlay and the key bar.
enum HelpText {
    static let lines: [String] =
        ConsoleKeys.bindings.map { binding in
            let keys = binding.keys.joined(separator: " ")
            return keys + String(repeating: " ", count: max(1, 16 - TextWidth.of(keys))) + binding.action
        } + [
            "",
            "Flags: F forced · ! conflict · ? stale forced variant · S stabilized",
            "       R resolved (everyone gets the winner) · W whitelisted here",
        ]

    /// The help overlay's title: any key closes it.
    static let title = "Keys (any key closes this)"

    /// The key bar's hints, most useful first; `? help` and `q quit` always end it.
    static func keyBarItems(for state: ConsoleState) -> [String] {
        if state.isPaneFocused {
            return ["↑↓ scroll the pane", "PgUp PgDn a page", "Tab back to the list", "? help", "q quit"]
        }
        let items: [String]
        switch state.route {
        case .main: items = ["↑↓ move", "⏎ open", "r reset all", "u update"]
        case .experiments:
            items = [
                "↑↓ move", "⏎ open", "← back", "/ filter", "d unforce", "r reset", "u update", "p pane", "Tab pane",
            ]
        case .variants: items = ["↑↓ move", "⏎ force", "← back", "/ filter", "d unforce", "p pane", "Tab pane"]
        case .assignments: items = ["↑↓ move", "⏎ open experiment", "← back", "/ filter"]
        case .events: items = ["↑↓ move", "⏎ details", "← back", "/ filter", "f reason", "p pane", "Tab pane"]
        case .settings: items = ["↑↓ move", "⏎ choose", "← back", "r reset source", "u update"]
        case .attributes: items = ["↑↓ move", "⏎ edit", "n new", "d remove", "← back", "/ filter"]
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
