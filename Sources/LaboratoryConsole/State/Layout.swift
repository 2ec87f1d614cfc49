/// Where things go on screen; shared by the reducer (scrolling, clicks) and the renderer.
public struct Layout: Sendable, Equatable {
    public let size: TerminalSize

    public init(_ size: TerminalSize) {
        self.size = size
    }

    /// Row 0 is the title bar, row 1 the column headings.
    public var listTop: Int { 2 }
    /// The status line, above the key bar.
    public var statusRow: Int { size.rows - 2 }
    public var keyBarRow: Int { size.rows - 1 }
    /// How many list rows fit.
    public var listHeight: Int { max(1, statusRow - listTop) }

    /// Whether a screen shows a detail pane beside its list.
    public static func hasDetail(_ route: Route) -> Bool {
        switch route {
        case .experiments, .variants: return true
        default: return false
        }
    }

    /// Columns given to the list; the rest (after a divider) to the detail pane.
    public func listWidth(for route: Route) -> Int {
        Self.hasDetail(route) ? max(40, size.columns * 11 / 20) : size.columns
    }
}
