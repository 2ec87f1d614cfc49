/// Makes text from catalogs and servers safe to put on a terminal.
///
/// Control characters and escape sequences in a name or value would move the
/// cursor or change the terminal's state; they are shown escaped instead
/// (`\e`, `\n`, `\x07`, `\u{202E}`), so what a person sees is what the data holds.
package enum DisplayText {
    package static func sanitize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result +=
                    scalar.value < 0x100
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional overrides and isolates reorder what follows them.
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut, never
    /// splitting a wide character.
    package static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        return head(of: text, fitting: width - 1).text + "…"
    }

    /// The end of `text` in at most `width` columns, starting with `…` when
    /// cut: where a person types, the end is what they look at.
    package static func tail(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        return "…" + end(of: text, fitting: width - 1).text
    }

    /// `text` cut to at most `width` columns by taking characters out of its
    /// middle (`ExperimentalSi…thoutSearch`), for names that differ at their
    /// end: cut at the end, two such names would look the same.
    package static func truncateMiddle(_ text: String, to width: Int) -> String {
        guard width > 2 else { return truncate(text, to: width) }
        if TextWidth.of(text) <= width { return text }
        // The end gets half the room; it holds the part that tells names apart.
        let end = end(of: text, fitting: (width - 1) / 2)
        return head(of: text, fitting: width - 1 - end.width).text + "…" + end.text
    }

    /// The longest start of `text` that fits in `width` columns, and its width.
    private static func head(of text: String, fitting width: Int) -> (text: String, width: Int) {
        var head = ""
        var used = 0
        for character in text {
            let characterWidth = TextWidth.of(character)
            if used + characterWidth > width { break }
            head.append(character)
            used += characterWidth
        }
        return (head, used)
    }

    /// The longest end of `text` that fits in `width` columns, and its width.
    private static func end(of text: String, fitting width: Int) -> (text: String, width: Int) {
        var end: [Character] = []
        var used = 0
        for character in text.reversed() {
            let characterWidth = TextWidth.of(character)
            if used + characterWidth > width { break }
            end.append(character)
            used += characterWidth
        }
        return (String(end.reversed()), used)
    }

    /// Names cut to `width` columns so that names that differ still look
    /// different: cut at the end, as people read; where two end cuts come out
    /// alike, cut in the middle; where those are still alike, from just
    /// before the first character they differ in (`…AAAXFlow`).
    package static func distinctCuts(_ names: [String], to width: Int) -> [String] {
        var cuts = names.map { truncate($0, to: width) }
        func collisions() -> [Int] {
            var seen: [String: [Int]] = [:]
            for (index, cut) in cuts.enumerated() { seen[cut, default: []].append(index) }
            return seen.values.filter { group in
                group.count > 1 && Set(group.map { names[$0] }).count > 1
            }.flatMap { $0 }
        }
        let alike = collisions()
        guard !alike.isEmpty else { return cuts }
        for index in alike { cuts[index] = truncateMiddle(names[index], to: width) }
        for index in collisions() {
            // From where it parts from the nearest other name, with a character of context.
            let name = Array(names[index])
            let shared =
                names.indices.filter { $0 != index && names[$0] != names[index] }.map { other in
                    zip(name, Array(names[other])).prefix { $0 == $1 }.count
                }.max() ?? 0
            let rest = String(name[max(0, shared - 1)...])
            cuts[index] = shared > 1 ? truncate("…" + rest, to: width) : truncate(names[index], to: width)
        }
        return cuts
    }

    /// `text` padded with spaces (or cut) to exactly `width` columns.
    package static func fit(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - TextWidth.of(cut)))
    }

    /// Breaks `text` into lines of at most `width` columns, at spaces where it
    /// can and inside a word where it must; the first line keeps the text's
    /// leading spaces, continuation lines start with `indent` spaces.
    package static func wrap(_ text: String, to width: Int, indent: Int = 2) -> [String] {
        guard width > indent + 1, TextWidth.of(text) > width else { return [text] }
        let leading = text.prefix { $0 == " " }
        var lines: [String] = []
        var line = String(leading)
        var lineWidth = leading.count
        // Whether nothing but indentation is on the line yet: the next word needs no space before it.
        var atStart = true
        let pad = String(repeating: " ", count: indent)
        func breakLine() {
            // The spaces the break stands for are not drawn.
            while line.count > indent, line.last == " " { line.removeLast() }
            lines.append(line)
            line = pad
            lineWidth = indent
            atStart = true
        }
        for word in text.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = TextWidth.of(String(word))
            let gap = atStart ? 0 : 1
            if lineWidth + gap + wordWidth <= width {
                if gap == 1 { line += " " }
                line += word
                lineWidth += gap + wordWidth
                atStart = false
                continue
            }
            if !atStart { breakLine() }
            for character in word {
                let characterWidth = TextWidth.of(character)
                if lineWidth + characterWidth > width { breakLine() }
                line.append(character)
                lineWidth += characterWidth
                atStart = false
            }
        }
        if !atStart { lines.append(line) }
        return lines
    }
}
