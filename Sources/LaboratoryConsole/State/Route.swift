/// A screen of the console, as in the Tweaks navigation stack.
public enum Route: Sendable, Hashable {
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
    public var title: String {
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
public struct Frame: Sendable, Equatable {
    public var route: Route
    /// Index of the highlighted row in the screen's rows.
    public var cursor: Int = 0
    /// What the highlight is on, by identity: when rows move (a catalog
    /// edit, an update, another process), the cursor follows it.
    public var selection: ListRow.Target?
    /// Index of the first row shown.
    public var scroll: Int = 0
    /// Case-insensitive filter over names; empty shows everything.
    public var filter: String = ""

    public init(route: Route) {
        self.route = route
    }
}
