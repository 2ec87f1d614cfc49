/// A mouse report in xterm's SGR format (mode 1006), `ESC [ < b ; x ; y M`,
/// read as console input.
///
/// The older X10 format sends each coordinate as one byte, so nothing past
/// column 223 can be clicked; SGR writes them as decimal numbers. ncurses
/// decodes SGR itself only where the terminal description says the terminal
/// speaks it (xterm's does, tmux's and screen's do not), so the terminal
/// layer asks for SGR itself and hands the rest of each report here.
package enum SGRMouseReport {
    /// The input a report stands for, from what follows `ESC [ <`
    /// (`0;250;5M`): a left-button press is a click, buttons 64 and 65 the
    /// wheel; releases, motion, other buttons and malformed reports are `nil`.
    package static func input(from report: String) -> TerminalInput? {
        guard let final = report.last, final == "M" || final == "m" else { return nil }
        let numbers = report.dropLast().split(separator: ";", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy(\.isASCII) }),
            let button = Int(numbers[0]), let column = Int(numbers[1]), let row = Int(numbers[2]),
            column >= 1, row >= 1
        else { return nil }
        // Bits 2 to 4 are Shift, Meta and Control; bit 5 says the mouse moved.
        let base = button & ~0b11100
        switch base {
        case 64: return .wheel(lines: -3)
        case 65: return .wheel(lines: 3)
        case 0 where final == "M": return .click(row: row - 1, column: column - 1)
        default: return nil
        }
    }
}
