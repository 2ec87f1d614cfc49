/// A group of rows under an optional header (a Tweaks collection), with the
/// lowercased text the filter searches in each row.
///
/// Sections are built once per data change and screen; typing in the filter
/// only scans the search bytes, which keeps each keystroke cheap on large catalogs.
package struct RowSection: Sendable, Equatable {
    package var header: ListRow?
    package var items: [ListRow]
    /// Lowercased UTF-8 of the names the filter matches, one per item.
    var search: [[UInt8]]
    /// Whether the header's second column counts the items shown.
    var countsItems: Bool

    init(header: ListRow? = nil, items: [(row: ListRow, names: [String])], countsItems: Bool = false) {
        self.header = header
        self.items = items.map(\.row)
        search = items.map { Array($0.names.joined(separator: "\u{1}").lowercased().utf8) }
        self.countsItems = countsItems
    }

    /// The rows of `sections` whose names contain `filter` (case-insensitive);
    /// a section with no match is left out, header and all.
    static func rows(of sections: [RowSection], filter: String) -> [ListRow] {
        let needle = Array(filter.lowercased().utf8)
        var rows: [ListRow] = []
        for section in sections {
            let items =
                needle.isEmpty
                ? section.items
                : section.items.indices.filter { contains(section.search[$0], needle) }.map { section.items[$0] }
            if !needle.isEmpty && items.isEmpty { continue }
            if var header = section.header {
                if section.countsItems && header.columns.count > 1 { header.columns[1] = String(items.count) }
                rows.append(header)
            }
            rows += items
        }
        return rows
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let first = pin[0]
                var start = 0
                let last = hay.count - pin.count
                while start <= last {
                    if hay[start] == first {
                        var matched = 1
                        while matched < pin.count && hay[start + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
