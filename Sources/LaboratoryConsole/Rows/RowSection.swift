/// A group of rows under an optional header (a Tweaks collection), with the
/// lowercased text the filter searches in each row.
///
/// Sections are built once per data change and screen; typing in the filter
/// only scans the search bytes, which keeps each keystroke cheap on large catalogs.
package struct RowSection: Sendable, Equatable {
    package var header: ListRow?
    package var items: [ListRow]
    /// Lowercased UTF-8 of the names the filter matches, the items' one
    /// after another (one buffer, not an array per row of thousands).
    private var search: [UInt8]
    /// Where each item's names end in ``search``.
    private var searchEnds: [Int]
    /// Whether the header's second column counts the items shown.
    var countsItems: Bool

    init(header: ListRow? = nil, items: [(row: ListRow, names: [String])], countsItems: Bool = false) {
        self.init(header: header, countsItems: countsItems)
        // Lowercasing keeps an ASCII name's length: for most names this is the exact size.
        reserveCapacity(items: items.count, nameBytes: items.reduce(0) { $0 + Self.bytes(of: $1.names) })
        for item in items { append(item.row, names: item.names) }
    }

    /// A section with no items yet (``append(_:names:)`` adds them).
    init(header: ListRow? = nil, countsItems: Bool) {
        self.header = header
        items = []
        search = []
        searchEnds = []
        self.countsItems = countsItems
    }

    /// Room for `items` rows whose names take `nameBytes` (``bytes(of:)``).
    mutating func reserveCapacity(items count: Int, nameBytes: Int) {
        items.reserveCapacity(count)
        searchEnds.reserveCapacity(count)
        search.reserveCapacity(nameBytes)
    }

    /// Adds `row`, which the filter finds by `names`.
    mutating func append(_ row: ListRow, names: [String]) {
        items.append(row)
        for (index, name) in names.enumerated() {
            if index > 0 { search.append(1) }  // no match across two names
            search += name.lowercased().utf8
        }
        searchEnds.append(search.count)
    }

    /// The bytes `names` take in the search text, when lowercasing keeps their length.
    static func bytes(of names: [String]) -> Int {
        names.reduce(max(0, names.count - 1)) { $0 + $1.utf8.count }
    }

    /// The rows of `sections` whose names contain `filter` (case-insensitive);
    /// a section with no match is left out, header and all.
    static func rows(of sections: [RowSection], filter: String) -> ShownRows {
        ShownRows(sections, filter: filter)
    }

    /// The positions of the items whose names contain `needle`.
    func itemIndices(containing needle: [UInt8]) -> [Int] {
        search.withUnsafeBufferPointer { bytes in
            items.indices.filter { index in
                let start = index == 0 ? 0 : searchEnds[index - 1]
                return Self.contains(UnsafeBufferPointer(rebasing: bytes[start..<searchEnds[index]]), needle)
            }
        }
    }

    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= hay.count else { return false }
        return needle.withUnsafeBufferPointer { pin in
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
