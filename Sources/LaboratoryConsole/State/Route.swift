/// A screen of the console, as in the Tweaks navigation stack.
package enum Route: Sendable, Hashable {
    /// The categories and the reset-all action.
    case main
    /// One section per source, one row per experiment.
    case experiments
    /// The variants of one experiment plus `Inactive`; choosing one forces it.
    case variants(source: String, experiment: String)
    /// Every active key and its value.
    case assignments
    /// The event table, newest first.
    case events
    /// The device's attributes, and those targeting reads: edited in place.
    case attributes
    /// Update, Status and Reset for each source.
    case settings

    /// The name in the title bar.
    package var title: String {
        switch self {
        case .main: return "Laboratory"
        case .experiments: return "Experiments"
        case .variants(_, let experiment): return experiment
        case .assignments: return "Assignments"
        case .events: return "Events"
        case .attributes: return "Attributes"
        case .settings: return "Settings"
        }
    }
}

/// One screen on the stack, with where its cursor and scroll are and its filter.
package struct Frame: Sendable, Equatable {
    package var route: Route
    /// Index of the highlighted row in the screen's rows.
    package var cursor: Int = 0
    /// What the highlight is on, by identity: when rows move (a catalog
    /// edit, an update, another process), the cursor follows it.
    package var selection: ListRow.Target?
    /// Index of the first row shown.
    package var scroll: Int = 0
    /// Case-insensitive filter over names; empty shows everything.
    package var filter: String = ""

    package init(route: Route) {
        self.route = route
    }
}
