/// Column headings and widths of each screen's list.
///
/// Columns are sized to their content: each gets what its widest text
/// needs, the room left goes to the column that holds the longest free text
/// (a value, a summary), and when room runs short the widest columns give
/// way first, so short ones (a reason, flags) stay whole.
enum ListColumns {
    static func headings(for route: Route) -> [String] {
        switch route {
        case .main: return ["CATEGORY", "SUMMARY"]
        case .experiments: return ["EXPERIMENT", "VARIANT", "FLAGS"]
        case .variants: return ["", "VARIANT", "SHARE"]
        case .assignments: return ["KEY", "VALUE", "EXPERIMENT", "VARIANT", "F", "SOURCE"]
        case .events: return ["TIME", "REASON", "EXPERIMENT", "VARIANT", "F", "DEVICE", "KEY = VALUE"]
        case .settings: return ["ITEM", "VALUE"]
        case .attributes: return ["ATTRIBUTE", "VALUE", "FROM", "READ BY"]
        }
    }

    /// The columns that hold names (experiments, variants, keys): cut in the
    /// middle when they do not fit, as names that differ only at their end
    /// would look the same cut there.
    static func nameColumns(for route: Route) -> Set<Int> {
        switch route {
        case .experiments: return [0, 1]
        case .variants: return [1]
        case .assignments: return [0, 2, 3]
        case .events: return [2, 3]
        case .attributes: return [0]
        case .main, .settings: return []
        }
    }

    /// The column that gets the room the others leave.
    static func spareColumn(for route: Route) -> Int {
        switch route {
        case .events: return 6
        case .attributes: return 3
        default: return 1
        }
    }

    /// The columns each column's widest text needs, headings included.
    static func needs(for route: Route, sections: [RowSection]) -> [Int] {
        var needs = headings(for: route).map(TextWidth.of)
        func measure(_ row: ListRow) {
            for (index, text) in row.columns.enumerated() where index < needs.count {
                // Printable ASCII is measured as is; anything else as drawn, control characters escaped.
                let width = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? text.utf8.count : shownWidth(text)
                needs[index] = max(needs[index], width)
            }
        }
        for section in sections {
            if let header = section.header { measure(header) }
            section.items.forEach(measure)
        }
        return needs
    }

    private static func shownWidth(_ text: String) -> Int {
        TextWidth.of(DisplayText.sanitize(text))
    }

    /// The width a list needs to show every column whole: the columns, a
    /// space between each two, and a margin each side.
    static func listNeed(_ needs: [Int]) -> Int {
        needs.reduce(0, +) + max(0, needs.count - 1) + 2
    }

    /// The columns shown: all of them, except on Events beside its detail
    /// pane, where the table keeps what tells events apart (time, reason,
    /// experiment, variant, forced) and the pane shows the rest.
    static func visible(for route: Route, pane: DetailPaneWidth) -> [Int] {
        let all = Array(headings(for: route).indices)
        guard route == .events, pane != .hidden else { return all }
        return [0, 1, 2, 3, 4]
    }

    /// Widths that add up (with one space between columns) to `width - 2`;
    /// a column not shown gets 0.
    static func widths(for route: Route, width: Int, needs: [Int], pane: DetailPaneWidth = .hidden) -> [Int] {
        let shown = visible(for: route, pane: pane)
        let shownNeeds = shown.map { $0 < needs.count ? max(1, needs[$0]) : 1 }
        let spare = shown.firstIndex(of: spareColumn(for: route)) ?? shown.count - 1
        let fitted = fit(shownNeeds, into: width - 2 - (shown.count - 1), spare: spare)
        var widths = Array(repeating: 0, count: headings(for: route).count)
        for (position, index) in shown.enumerated() { widths[index] = fitted[position] }
        return widths
    }

    /// Shares `room` among columns that need `needs`: all they need and the
    /// rest to `spare` when it fits; otherwise no column gets more than a
    /// cap chosen so the narrow ones keep all they need.
    static func fit(_ needs: [Int], into room: Int, spare: Int) -> [Int] {
        guard !needs.isEmpty else { return [] }
        let total = needs.reduce(0, +)
        if total <= room {
            var widths = needs
            widths[min(spare, needs.count - 1)] += room - total
            return widths
        }
        // Water filling: the narrowest keep what they need while they fit a fair share.
        var remaining = room
        var cap = 0
        for (index, need) in needs.sorted().enumerated() {
            let share = remaining / (needs.count - index)
            if need > share {
                cap = share
                break
            }
            remaining -= need
        }
        var widths = needs.map { min($0, cap) }
        var left = room - widths.reduce(0, +)
        for index in widths.indices where left > 0 && needs[index] > widths[index] {
            widths[index] += 1
            left -= 1
        }
        return widths.map { max(1, $0) }
    }

    static func emptyText(for route: Route) -> String {
        switch route {
        case .experiments: return "no experiments: load a catalog with --catalog"
        case .assignments: return "no active assignments: the app uses its baselines"
        case .events: return "no events yet"
        case .attributes: return "no attributes: n adds one (e.g. country=FR)"
        case .variants: return "this experiment has no variants"
        default: return "nothing here"
        }
    }
}
