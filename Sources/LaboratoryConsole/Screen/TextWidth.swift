import Synchronization

/// How many terminal columns a character (an extended grapheme cluster) takes.
///
/// Single scalars follow the C library's `wcwidth`, close enough for names
/// and values: East Asian wide and fullwidth characters and emoji take two
/// columns; combining marks and joiners take none. Clusters of several
/// scalars are where terminals disagree (tmux 3.3 draws `👍🏽` in four
/// columns and `❤️` in one, kitty in two each), so they follow
/// ``ClusterRules``, which the terminal layer measures at start-up. Kept in
/// the pure core so layout is decided before anything reaches the terminal.
package enum TextWidth {
    /// How the terminal draws the clusters terminals disagree on.
    package struct ClusterRules: Sendable, Hashable {
        /// An emoji and a skin-tone modifier (`👍🏽`) share one glyph; else the modifier takes its own two columns.
        package var modifiersJoin: Bool
        /// Emoji joined by ZWJ (`👨‍👩‍👧`) make one glyph; else each takes its own columns.
        package var joinersJoin: Bool
        /// VS16 (`❤️`) makes a narrow symbol an emoji two columns wide; else it stays one.
        package var selectorWidens: Bool

        package init(modifiersJoin: Bool, joinersJoin: Bool, selectorWidens: Bool) {
            self.modifiersJoin = modifiersJoin
            self.joinersJoin = joinersJoin
            self.selectorWidens = selectorWidens
        }

        /// What Unicode intends and modern terminals do: every emoji cluster is one glyph two columns wide.
        package static let unicode = ClusterRules(modifiersJoin: true, joinersJoin: true, selectorWidens: true)

        fileprivate var bits: UInt8 {
            (modifiersJoin ? 1 : 0) | (joinersJoin ? 2 : 0) | (selectorWidens ? 4 : 0)
        }

        fileprivate init(bits: UInt8) {
            self.init(modifiersJoin: bits & 1 != 0, joinersJoin: bits & 2 != 0, selectorWidens: bits & 4 != 0)
        }
    }

    /// The rules of the terminal the console draws on: set once by the
    /// terminal layer after measuring; ``ClusterRules/unicode`` until then.
    package static var terminalRules: ClusterRules {
        get { ClusterRules(bits: rules.load(ordering: .relaxed)) }
        set { rules.store(newValue.bits, ordering: .relaxed) }
    }

    private static let rules = Atomic<UInt8>(ClusterRules.unicode.bits)

    package static func of(_ character: Character) -> Int {
        of(character, rules: terminalRules)
    }

    /// The width of `character` on a terminal that follows `rules`.
    package static func of(_ character: Character, rules: ClusterRules) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Other clusters (a letter and its marks, Hangul syllables in jamo) take their first scalar's width.
        guard scalars.count > 1, first.properties.isEmoji else { return of(first) }
        var width = of(first)
        var joining = false
        for scalar in scalars.dropFirst() {
            if joining {
                // The scalar after a ZWJ: one glyph with what came before, or drawn on its own.
                joining = false
                if !rules.joinersJoin { width += of(scalar) }
                continue
            }
            switch scalar.value {
            case 0x200D:
                joining = true
            case 0xFE0F:
                if rules.selectorWidens { width = max(width, 2) }
            case 0x1F3FB...0x1F3FF:
                if !rules.modifiersJoin { width += 2 }
            case 0x1F1E6...0x1F1FF:
                break  // a flag's second letter: the pair is one glyph, two columns
            default:
                width += of(scalar)
            }
        }
        return width
    }

    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// The width of a whole string.
    package static func of(_ text: String) -> Int {
        // Printable ASCII, most names and values: one column a byte, no clusters to form.
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        let rules = terminalRules
        return text.reduce(0) { $0 + of($1, rules: rules) }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
