/// Every key the console takes, once: the help overlay, the README's key
/// table and `lab(1)` are all written from (or checked against) this list.
package enum ConsoleKeys {
    /// Keys that do one thing, and what.
    package struct Binding: Sendable, Equatable {
        /// The keys as people name them: `↑`, `PgDn`, `Ctrl-U`, `click`.
        package var keys: [String]
        /// What they do, in a few words.
        package var action: String
    }

    package static let bindings: [Binding] = [
        Binding(keys: ["↑", "↓", "j", "k"], action: "move"),
        Binding(keys: ["PgUp", "PgDn", "Home", "End", "g", "G"], action: "move a page; first / last row"),
        Binding(keys: ["Enter", "→", "l"], action: "open; choose (forces the variant); edit an attribute"),
        Binding(keys: ["Esc", "←", "h", "Backspace"], action: "back (Esc first clears a filter)"),
        Binding(keys: ["/"], action: "filter names as you type (marks the match)"),
        Binding(keys: ["Ctrl-U"], action: "clear what you are typing (a filter, a path, a value)"),
        Binding(keys: ["Tab", "Shift-↑", "Shift-↓"], action: "the detail pane: Tab focuses it, Shift scrolls"),
        Binding(keys: ["d"], action: "drop this forced variant, or this attribute"),
        Binding(keys: ["n"], action: "Attributes: add one, typed as name=value"),
        Binding(keys: ["r"], action: "reset: drop forced variants (asks first)"),
        Binding(keys: ["u"], action: "update: fetch the sources again"),
        Binding(keys: ["f"], action: "Events: next reason to show"),
        Binding(keys: ["p"], action: "detail pane: wider, hidden, back"),
        Binding(keys: ["click", "wheel"], action: "select a row (again: open); the wheel moves 3 rows"),
        Binding(keys: ["?"], action: "this help"),
        Binding(keys: ["q", "Ctrl-C"], action: "quit"),
        Binding(keys: ["Ctrl-Z"], action: "suspend to the shell; fg comes back"),
    ]
}
