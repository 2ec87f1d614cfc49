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

    /// A section's header (`item` is -1) or one of its items.
    private struct Place: Sendable, Equatable {
        var section: Int32
        var item: Int32
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
            if rowSection.header != nil { places.append(Place(section: Int32(section), item: -1)) }
            for item in items { places.append(Place(section: Int32(section), item: Int32(item))) }
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { places.count }

    package subscript(position: Int) -> ListRow {
        let place = places[position]
        let section = sections[Int(place.section)]
        if place.item >= 0 { return section.items[Int(place.item)] }
        // Only a section with a header has a place for it.
        var header = section.header!
        if section.countsItems && header.columns.count > 1 {
            header.columns[1] = String(shownCounts[Int(place.section)])
        }
        return header
    }
}
