/// The help overlay and the key bar.
enum HelpText {
    static let lines = [
        "↑ ↓  j k        move",
        "PgUp PgDn       move a page",
        "Home End  g G   first / last row",
        "Enter → l       open, or choose (forces the variant)",
        "Esc ← h  ⌫      back (Esc first clears a filter)",
        "/               filter names as you type",
        "d               drop the forced variant of this experiment",
        "r               reset: drop forced variants (asks first)",
        "u               update: fetch the sources again",
        "f               Events: next reason to show",
        "click           select a row; click it again to open",
        "wheel           move three rows",
        "?               this help",
        "q  Ctrl-C       quit",
        "Ctrl-Z          suspend to the shell; fg comes back",
        "",
        "Flags: F forced · ! conflict · ? stale request · S stabilized",
        "       R resolved (everyone gets the winner) · W whitelisted here",
        "Press any key to close.",
    ]

    static func keyBar(for state: ConsoleState) -> String {
        switch state.route {
        case .main: return "↑↓ move  ⏎ open  r reset all  u update  ? help  q quit"
        case .experiments: return "↑↓ move  ⏎ open  ← back  / filter  d unforce  r reset  u update  ? help  q quit"
        case .variants: return "↑↓ move  ⏎ force  ← back  / filter  d unforce  ? help  q quit"
        case .assignments: return "↑↓ move  ⏎ open experiment  ← back  / filter  ? help  q quit"
        case .events: return "↑↓ move  ← back  / filter  f reason  ? help  q quit"
        case .settings: return "↑↓ move  ⏎ choose  ← back  r reset source  u update  ? help  q quit"
        }
    }
}
