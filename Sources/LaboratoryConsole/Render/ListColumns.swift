/// Column headings and widths of each screen's list.
enum ListColumns {
    static func headings(for route: Route) -> [String] {
        switch route {
        case .main: return ["CATEGORY", "SUMMARY"]
        case .experiments: return ["EXPERIMENT", "VARIANT", "FLAGS"]
        case .variants: return ["", "VARIANT", "SHARE"]
        case .assignments: return ["KEY", "VALUE", "EXPERIMENT", "VARIANT", "SOURCE"]
        case .events: return ["TIME", "REASON", "EXPERIMENT", "VARIANT", "KEY = VALUE"]
        case .settings: return ["ITEM", "VALUE"]
        }
    }

    /// Widths that add up (with one space between columns) to `width - 2`.
    static func widths(for route: Route, width: Int) -> [Int] {
        let room = width - 2
        func split(_ fixed: [Int?]) -> [Int] {
            let used = fixed.compactMap { $0 }.reduce(0, +) + fixed.count - 1
            let flexible = fixed.filter { $0 == nil }.count
            let share = max(4, (room - used) / max(1, flexible))
            return fixed.map { $0 ?? share }
        }
        switch route {
        case .main: return split([14, nil])
        case .experiments: return split([nil, nil, 5])
        case .variants: return split([1, nil, 9])
        case .assignments: return split([nil, nil, nil, nil, 10])
        case .events: return split([8, 11, nil, nil, nil])
        case .settings: return split([14, nil])
        }
    }

    static func emptyText(for route: Route) -> String {
        switch route {
        case .experiments: return "no experiments: load a catalog with --catalog"
        case .assignments: return "no active assignments: the app uses its baselines"
        case .events: return "no events yet"
        case .variants: return "this experiment has no variants"
        default: return "nothing here"
        }
    }
}
