/// A framed box in the middle of the screen, for help and confirmations.
enum Overlay {
    static func draw(title: String, lines: [String], on screen: inout ScreenBuffer) {
        let contentWidth = min(
            screen.width - 6,
            max(TextWidth.of(title) + 4, lines.map { TextWidth.of($0) }.max() ?? 0)
        )
        let boxWidth = contentWidth + 4
        let boxHeight = min(screen.height - 2, lines.count + 2)
        let left = (screen.width - boxWidth) / 2
        let top = max(1, (screen.height - boxHeight) / 2)
        let style = CellStyle(role: .plain)
        let border = CellStyle(role: .accent, bold: true)
        screen.write("┌" + String(repeating: "─", count: boxWidth - 2) + "┐", row: top, column: left, style: border)
        screen.write(" \(title) ", row: top, column: left + 2, style: border)
        for index in 0..<(boxHeight - 2) {
            let y = top + 1 + index
            screen.write("│", row: y, column: left, style: border)
            screen.fill(row: y, column: left + 1, count: boxWidth - 2, style: style)
            screen.write(lines[index], row: y, column: left + 2, maxWidth: contentWidth, style: style)
            screen.write("│", row: y, column: left + boxWidth - 1, style: border)
        }
        screen.write(
            "└" + String(repeating: "─", count: boxWidth - 2) + "┘",
            row: top + boxHeight - 1,
            column: left,
            style: border
        )
    }
}
