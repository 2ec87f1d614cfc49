/// The rows a screen shows: the rows of its sections that the filter keeps,
/// headers counting what they show, read in place from the sections.
///
/// The Experiments screen of 10,000 experiments has a row for each; a list
/// of copies beside the sections was two megabytes at the peak of a
/// console's start, and as much again while it grew. This keeps where each
/// shown row is, eight bytes a row.
package struct ShownRows: Sendable, Equatable, RandomAccessCollection {
    /// The sections, shared with the state that built them (no copy).
    private var sections: [RowSection]
    /// Where each shown row is, in order.
    private var places: [Place]
    /// How many items each section shows, for the count in its header.
    private var shownCounts: [Int]

    /// A section's header (`item` is -1) or one of its items, and whether
    /// the row can be highlighted (counting those is a scan of places, not of rows).
    private struct Place: Sendable, Equatable {
        var section: Int32
        var item: Int32
        var isSelectable: Bool
    }

    /// No rows.
    package init() {
        sections = []
        places = []
        shownCounts = []
    }

    /// The rows of `sections` whose names contain `filter` (case-insensitive);
    /// a section with no match is left out, header and all.
    init(_ sections: [RowSection], filter: String) {
        let needle = Array(filter.lowercased().utf8)
        self.sections = sections
        shownCounts = []
        shownCounts.reserveCapacity(sections.count)
        places = []
        if needle.isEmpty {
            places.reserveCapacity(sections.reduce(0) { $0 + $1.items.count + ($1.header == nil ? 0 : 1) })
        }
        for (section, rowSection) in sections.enumerated() {
            let items = needle.isEmpty ? Array(rowSection.items.indices) : rowSection.itemIndices(containing: needle)
            shownCounts.append(items.count)
            if !needle.isEmpty && items.isEmpty { continue }
            if rowSection.header != nil {
                places.append(Place(section: Int32(section), item: -1, isSelectable: false))
            }
            for item in items {
                let isSelectable = rowSection.items[item].isSelectable
                places.append(Place(section: Int32(section), item: Int32(item), isSelectable: isSelectable))
            }
        }
    }

    /// How many of the rows at `positions` can be highlighted (``ListRow/isSelectable``).
    package func selectableCount(in positions: Range<Int>) -> Int {
        places[positions].reduce(0) { $0 + ($1.isSelectable ? 1 : 0) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { places.count }

    package subscript(position: Int) -> ListRow {
        let place = places[position]
        let section = Int(place.section)
        // Read in place: a copy of the section would count references to its four lists.
        if place.item >= 0 { return sections[section].items[Int(place.item)] }
        // Only a section with a header has a place for it.
        var header = sections[section].header!
        if sections[section].countsItems && header.columns.count > 1 {
            header.columns[1] = String(shownCounts[section])
        }
        return header
    }
}
