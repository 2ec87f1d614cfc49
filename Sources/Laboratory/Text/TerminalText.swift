/// Text made safe to print on a terminal: control characters from catalogs,
/// payloads, ETags or the state file are shown as escapes (`\u{1B}`) instead
/// of being sent, so a variant name cannot retitle the terminal, clear the
/// screen, move the cursor, reverse what follows (U+202E) or forge a line of
/// output. Shared by every executable (`lab`, `lab-demo`).
package enum TerminalText {
    /// `text` with its controls escaped; line feeds and tabs stay, for
    /// messages that are several lines on purpose (stderr).
    package static func visible(_ text: String) -> String {
        escaping(text) { isControl($0) }
    }

    /// One line of output: line feeds and carriage returns in it are escaped
    /// too, so a value cannot start a line of its own that looks like output.
    package static func line(_ text: String) -> String {
        escaping(text) { isControl($0) || $0 == "\n" }
    }

    /// One cell of a table or one value in a line: tabs escaped as well, as
    /// they would break the columns.
    package static func field(_ text: String) -> String {
        escaping(text) { isControl($0) || $0 == "\n" || $0 == "\t" }
    }

    private static func escaping(_ text: String, where escaped: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if escaped(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls but line feed and tab, DEL, the C1 controls (U+0080–U+009F,
    /// which some terminals read as ESC sequences of their own), and the
    /// bidirectional and invisible formatting marks that reorder or hide what
    /// a person reads (U+061C, U+200B–U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00..<0x20, 0x7F..<0xA0: return true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// JSON text with the controls JSON allows unescaped (DEL, C1 and the
    /// bidirectional marks) escaped the JSON way; JSON escapes C0 itself.
    package static func json(_ text: String) -> String {
        let escaped = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && isControl(scalar) }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if escaped(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
