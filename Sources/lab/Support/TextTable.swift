import Foundation
import Laboratory

/// Lays out rows in left-aligned columns for terminal output.
enum TextTable {
    /// The header and each row as a line; a cell's line breaks, tabs and
    /// controls are escaped, so a value can neither break the columns nor
    /// forge a row.
    static func lines(header: [String], rows: [[String]]) -> [String] {
        let all = ([header] + rows).map { $0.map(TerminalText.field) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
