/// Where things go on screen; shared by the reducer (scrolling, clicks) and the renderer.
package struct Layout: Sendable, Equatable {
    package let size: TerminalSize
    package let pane: DetailPaneWidth
    /// The columns the list needs to show every row whole; the pane gets what it leaves.
    package let listNeed: Int

    package init(_ size: TerminalSize, pane: DetailPaneWidth = .normal, listNeed: Int = .max) {
        self.size = size
        self.pane = pane
        self.listNeed = listNeed
    }

    /// Row 0 is the title bar, row 1 the column headings.
    package var listTop: Int { 2 }
    /// The status line, above the key bar.
    package var statusRow: Int { size.rows - 2 }
    package var keyBarRow: Int { size.rows - 1 }
    /// How many list rows fit.
    package var listHeight: Int { max(1, statusRow - listTop) }

    /// Whether a screen has a detail pane beside its list (shown or not).
    package static func hasDetail(_ route: Route) -> Bool {
        switch route {
        case .experiments, .variants, .events: return true
        default: return false
        }
    }

    /// The column the detail pane's text starts at, and how wide it is.
    package func paneColumns(for route: Route) -> (left: Int, width: Int) {
        let left = listWidth(for: route)
        return (left + 2, size.columns - left - 3)
    }

    /// How many rows the detail pane has: from below the title bar to above the status line.
    package var paneHeight: Int { max(1, statusRow - 1) }

    /// Whether a screen shows its detail pane now.
    package func showsDetail(_ route: Route) -> Bool {
        Self.hasDetail(route) && pane != .hidden
    }

    /// Columns given to the list; the rest (after a divider) to the detail pane.
    ///
    /// Beside the list, the list takes what it needs, from 40 columns to a
    /// little over half the screen; a wide pane leaves the list a third (at
    /// least 30 columns, and always less than beside).
    package func listWidth(for route: Route) -> Int {
        guard showsDetail(route) else { return size.columns }
        let normal = min(max(40, listNeed), max(40, size.columns * 11 / 20))
        switch pane {
        case .normal: return normal
        case .wide: return max(30, min(size.columns / 3, normal - 8))
        case .hidden: return size.columns
        }
    }
}
