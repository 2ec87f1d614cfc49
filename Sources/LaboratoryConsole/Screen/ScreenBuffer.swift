/// An in-memory screen: rows of cells that the console core draws into and a
/// terminal copies out. Tests read it back as lines of text.
package struct ScreenBuffer: Sendable, Equatable {
    /// One column of the screen.
    package struct Cell: Sendable, Equatable {
        /// The character shown, or `""` for the right half of a wide character.
        package var text: String
        package var style: CellStyle

        package static let blank = Cell(text: " ", style: .plain)

        /// Whether this cell is covered by a wide character to its left.
        package var isContinuation: Bool { text.isEmpty }
    }

    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    package subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` at a position, sanitized and cut to `maxWidth` columns
    /// (to the right edge by default) with `…`.
    /// - Returns: the columns used.
    @discardableResult
    package mutating func write(
        _ text: String,
        row: Int,
        column: Int,
        maxWidth: Int? = nil,
        style: CellStyle = .plain
    ) -> Int {
        guard row >= 0, row < height, column >= 0, column < width else { return 0 }
        let room = min(maxWidth ?? width - column, width - column)
        let shown = DisplayText.truncate(DisplayText.sanitize(text), to: room)
        var x = column
        for character in shown {
            let characterWidth = TextWidth.of(character)
            if characterWidth == 0 {
                // A stray combining mark joins the previous cell.
                if x > column { cells[row * width + x - 1].text.append(character) }
                continue
            }
            put(String(character), width: characterWidth, row: row, column: x, style: style)
            x += characterWidth
        }
        return x - column
    }

    /// Paints `count` cells (to the right edge by default) with spaces in `style`.
    package mutating func fill(row: Int, column: Int = 0, count: Int? = nil, style: CellStyle) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) {
            put(" ", width: 1, row: row, column: x, style: style)
        }
    }

    /// Changes the style of cells without changing their text (for a highlight bar).
    package mutating func restyle(row: Int, column: Int = 0, count: Int? = nil, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) { change(&cells[row * width + x].style) }
    }

    /// Puts a character `characterWidth` columns wide at a position: its
    /// text in the first cell, continuations in the others.
    private mutating func put(_ text: String, width characterWidth: Int, row: Int, column: Int, style: CellStyle) {
        let base = row * width
        guard column + characterWidth <= width else {
            // No room for the whole character at the right edge: blanks instead.
            for x in column..<width { put(" ", width: 1, row: row, column: x, style: style) }
            return
        }
        // Overwriting part of a wide character blanks the rest of it.
        if cells[base + column].isContinuation {
            var start = column - 1
            while start > 0 && cells[base + start].isContinuation { start -= 1 }
            for x in start..<column { cells[base + x] = Cell(text: " ", style: cells[base + x].style) }
        }
        var after = column + characterWidth
        while after < width && cells[base + after].isContinuation {
            cells[base + after] = Cell(text: " ", style: cells[base + after].style)
            after += 1
        }
        cells[base + column] = Cell(text: text, style: style)
        for x in (column + 1)..<(column + characterWidth) { cells[base + x] = Cell(text: "", style: style) }
    }

    /// The text of one row, with trailing spaces removed.
    package func line(_ row: Int) -> String {
        var text = ""
        for column in 0..<width { text += self[row, column].text }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row as text, for tests and captures.
    package var lines: [String] { (0..<height).map(line) }
}
