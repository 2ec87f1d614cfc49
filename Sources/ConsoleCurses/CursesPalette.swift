import CNcursesw
import LaboratoryConsole

/// Turns style roles into ncurses attributes: colour pairs when colour is
/// on, bold / dim / reverse alone when it is off (`NO_COLOR`, or a terminal
/// without colours).
struct CursesPalette {
    let colors: Bool
    private var pairs: [CellStyle.Role: Int16] = [:]
    /// Foreground and background colour numbers by role (-1: the terminal's default).
    private var scheme: [CellStyle.Role: (Int16, Int16)] = [:]

    init(colors: Bool) {
        self.colors = colors
        guard colors else { return }
        start_color()
        use_default_colors()
        let scheme: [(CellStyle.Role, Int16, Int16)] = [
            (.title, Int16(COLOR_BLACK), Int16(COLOR_CYAN)),
            (.header, Int16(COLOR_CYAN), -1),
            (.accent, Int16(COLOR_CYAN), -1),
            (.forced, Int16(COLOR_MAGENTA), -1),
            (.conflict, Int16(COLOR_YELLOW), -1),
            (.error, Int16(COLOR_RED), -1),
            (.ok, Int16(COLOR_GREEN), -1),
        ]
        for (index, (role, foreground, background)) in scheme.enumerated() {
            let pair = Int16(index + 1)
            init_pair(pair, foreground, background)
            pairs[role] = pair
            self.scheme[role] = (foreground, background)
        }
    }

    /// The same look as ``attributes(for:)``, as an ANSI SGR sequence, for
    /// what is written to the terminal past ncurses (``ClusterOverlay``).
    func sgr(for style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.underline { codes.append("4") }
        if style.role == .muted || style.role == .inactive { codes.append("2") }
        if colors, let (foreground, background) = scheme[style.role] {
            codes.append("3\(foreground)")
            codes.append(background < 0 ? "49" : "4\(background)")
            if style.reverse && style.role != .title { codes.append("7") }
        } else if style.reverse || style.role == .title {
            codes.append("7")
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    func attributes(for style: CellStyle) -> attr_t {
        var attributes = lab_a_normal()
        if style.bold { attributes |= lab_a_bold() }
        if style.underline { attributes |= lab_a_underline() }
        if style.role == .muted || style.role == .inactive { attributes |= lab_a_dim() }
        if colors, let pair = pairs[style.role] {
            attributes |= lab_color_pair(pair)
            // The title bar has its own colours; reversing them would undo them.
            if style.reverse && style.role != .title { attributes |= lab_a_reverse() }
        } else if style.reverse || style.role == .title {
            attributes |= lab_a_reverse()
        }
        return attributes
    }
}
