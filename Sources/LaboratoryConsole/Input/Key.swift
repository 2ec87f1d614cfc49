/// A key press, as the console core understands it.
package enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// Shift-↑ and Shift-↓: scroll the detail pane, wherever the focus is.
    case shiftUp, shiftDown
    /// Ctrl-U: clear the text being typed (a filter, a path), as shells do.
    case clearLine
    /// Ctrl-C: quit, and give the terminal back.
    case interrupt
}

/// Something the terminal reports to the console.
package enum TerminalInput: Sendable, Hashable {
    case key(Key)
    /// The terminal now has this size.
    case resize(TerminalSize)
    /// A mouse click at a screen position (0-based).
    case click(row: Int, column: Int)
    /// The mouse wheel turned: `lines` up (negative) or down (positive).
    case wheel(lines: Int)
    /// A signal asked the program to end (SIGTERM, SIGHUP).
    case terminate
}

/// Columns and rows of a terminal.
package struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The smallest size the console lays out for.
    package static let minimum = TerminalSize(columns: 80, rows: 24)

    package var isBigEnough: Bool { columns >= Self.minimum.columns && rows >= Self.minimum.rows }

    package var description: String { "\(columns)×\(rows)" }
}
