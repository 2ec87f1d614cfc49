import CNcursesw
import LaboratoryConsole

/// A grapheme cluster that ncurses cannot hold in one cell, written straight
/// to the terminal after ncurses has drawn the screen.
///
/// ncurses keeps a spacing character and at most four zero-width ones per
/// cell, and starts a new cell at every spacing character: where the
/// terminal draws a skin tone (`👍🏽`) or a ZWJ sequence (`👨‍👩‍👧`) as one
/// glyph, or `❤️` two columns wide (``TextWidth/ClusterRules``), ncurses
/// would place it otherwise, and a sixth combining mark would be dropped.
/// Such a cell is drawn as blanks
/// of its width through ncurses, then the whole cluster goes to the same
/// place, in the cell's colours, between a save and a restore of the cursor,
/// so ncurses still knows where the cursor and attributes are. Every draw
/// writes them again, as ncurses may have repainted their cells.
struct ClusterOverlay: Equatable {
    var row: Int
    var column: Int
    var text: String
    var style: CellStyle

    /// Spacing characters and zero-width ones that fit one ncurses cell.
    static let scalarsPerCell = 5

    /// Whether ncurses would draw this cell's text other than in `width`
    /// columns (it gives each scalar its `wcwidth`), or drop some of it.
    static func isNeeded(for text: String, width: Int) -> Bool {
        let scalars = text.unicodeScalars
        guard scalars.count > 1 else { return false }
        if scalars.count > scalarsPerCell { return true }
        let columns = scalars.reduce(0) { $0 + max(0, Int(lab_wcwidth(wchar_t(bitPattern: $1.value)))) }
        return columns != width
    }

    /// The bytes that draw `clusters`: save the cursor (and attributes),
    /// then for each its position, colours and text, then restore.
    static func bytes(for clusters: [ClusterOverlay], palette: CursesPalette) -> [UInt8] {
        var text = "\u{1B}7"
        for cluster in clusters {
            text += "\u{1B}[\(cluster.row + 1);\(cluster.column + 1)H" + palette.sgr(for: cluster.style) + cluster.text
        }
        text += "\u{1B}8"
        return Array(text.utf8)
    }
}
