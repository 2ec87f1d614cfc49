/// How much of the screen the detail pane takes, switched with `p`.
package enum DetailPaneWidth: Sendable, Equatable {
    /// Beside the list, which keeps a little over half the width.
    case normal
    /// Beside the list, which keeps two fifths: for long values and explanations.
    case wide
    /// Not shown: the list takes the whole width.
    case hidden

    /// What `p` switches to.
    var next: DetailPaneWidth {
        switch self {
        case .normal: return .wide
        case .wide: return .hidden
        case .hidden: return .normal
        }
    }

    /// What the status line says after `p`.
    var description: String {
        switch self {
        case .normal: return "Detail pane beside the list (p: wider)."
        case .wide: return "Detail pane wide (p: hide it)."
        case .hidden: return "Detail pane hidden (p: show it)."
        }
    }
}
