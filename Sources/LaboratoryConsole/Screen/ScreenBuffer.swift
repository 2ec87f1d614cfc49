/// An in-memory screen: rows of cells that the console core draws into and a
/// terminal copies out. Tests read it back as lines of text.
public struct ScreenBuffer: Sendable, Equatable {
    /// One column of the screen.
    public struct Cell: Sendable, Equatable {
        /// The character shown, or `""` for the right half of a wide character.
        public var text: String
        public var style: CellStyle

        public static let blank = Cell(text: " ", style: .plain)

        /// Whether this cell is covered by the wide character to its left.
        public var isContinuation: Bool { text.isEmpty }
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` at a position, sanitized and cut to `maxWidth` columns
    /// (to the right edge by default) with `…`.
    /// - Returns: the columns used.
    @discardableResult
    public mutating func write(
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
    public mutating func fill(row: Int, column: Int = 0, count: Int? = nil, style: CellStyle) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) {
            put(" ", width: 1, row: row, column: x, style: style)
        }
    }

    /// Changes the style of cells without changing their text (for a highlight bar).
    public mutating func restyle(row: Int, column: Int = 0, count: Int? = nil, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width))
        for x in max(0, column)..<max(max(0, column), end) { change(&cells[row * width + x].style) }
    }

    private mutating func put(_ text: String, width characterWidth: Int, row: Int, column: Int, style: CellStyle) {
        let base = row * width
        // Overwriting half of a wide character blanks its other half.
        if cells[base + column].isContinuation, column > 0 {
            cells[base + column - 1] = Cell(text: " ", style: cells[base + column - 1].style)
        }
        if characterWidth == 2 {
            guard column + 1 < width else {
                cells[base + column] = Cell(text: " ", style: style)
                return
            }
            if column + 2 < width, cells[base + column + 2].isContinuation {
                cells[base + column + 2] = Cell(text: " ", style: cells[base + column + 2].style)
            }
            cells[base + column] = Cell(text: text, style: style)
            cells[base + column + 1] = Cell(text: "", style: style)
        } else {
            if column + 1 < width, cells[base + column + 1].isContinuation {
                cells[base + column + 1] = Cell(text: " ", style: cells[base + column + 1].style)
            }
            cells[base + column] = Cell(text: text, style: style)
        }
    }

    /// The text of one row, with trailing spaces removed.
    public func line(_ row: Int) -> String {
        var text = ""
        for column in 0..<width { text += self[row, column].text }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row as text, for tests and captures.
    public var lines: [String] { (0..<height).map(line) }
}
