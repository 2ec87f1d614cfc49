/// Text made safe to print on a terminal: control characters from catalogs,
/// payloads, ETags or the state file are shown as escapes (`\u{1B}`) instead
/// of being sent, so a variant name cannot retitle the terminal, clear the
/// screen or move the cursor. Line breaks and tabs stay as they are.
enum TerminalText {
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls but line feed and tab, DEL, and the C1 controls (U+0080–U+009F,
    /// which some terminals read as ESC sequences of their own).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00..<0x20, 0x7F..<0xA0: return true
        default: return false
        }
    }

    /// JSON text with the controls JSON allows unescaped (DEL and C1) escaped
    /// the JSON way; JSON escapes C0 itself.
    static func json(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x7F..<0xA0).contains($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if (0x7F..<0xA0).contains(scalar.value) {
                result += "\\u00" + String(scalar.value, radix: 16)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
