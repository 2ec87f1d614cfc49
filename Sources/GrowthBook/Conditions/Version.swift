/// GrowthBook's version comparison: `1.2.3-beta` style strings padded so
/// that plain string order is version order.
enum Version {
    /// JavaScript's line terminators, which `.` in `/\+.*$/` does not cross.
    private static let lineBreaks: Set<Character> = ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}"]

    /// The padded form: a leading `v` and a `+build` dropped, parts split on
    /// `-` and `.`, numeric parts right-aligned in five places, `~` after
    /// three parts (so a release sorts after its pre-releases), joined by `-`.
    ///
    /// Anything but a non-empty string or a number (missing, `null`, a
    /// boolean, an array, an empty string) is the version `"0"`, padded like
    /// any other (`"    0"`), so it sorts below every real version.
    static func padded(_ value: JSONValue?) -> String {
        let input: String
        switch value {
        case .number(let number)?: input = JavaScriptSemantics.numberString(number)
        case .string(let text)? where !text.isEmpty: input = text
        default: input = "0"
        }
        var text = input
        if text.hasPrefix("v") { text.removeFirst() }
        // `/\+.*$/`: the build is cut from the first `+` that no line break follows.
        let lastBreak = text.lastIndex { lineBreaks.contains($0) }
        let searched = lastBreak.map { text[text.index(after: $0)...] } ?? text[...]
        if let plus = searched.firstIndex(of: "+") { text = String(text[..<plus]) }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "." }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            part.allSatisfy(\.isASCIIDigit) && !part.isEmpty
                ? String(repeating: " ", count: max(0, 5 - part.count)) + part : part
        }.joined(separator: "-")
    }

    /// How `actual`'s padded form orders against an already padded one
    /// (-1, 0, 1, by UTF-16 code units), producing the padded form unit by
    /// unit instead of building it: no allocation for an ASCII string, the
    /// attribute a condition meets on every evaluation.
    static func order(of actual: JSONValue, comparedTo expected: [UInt16]) -> Int {
        let order = withASCIIBytes(of: actual) { bytes in
            expected.withUnsafeBufferPointer { expected in
                var comparison = Comparison(expected: expected)
                walkPadded(ascii: bytes, into: &comparison)
                return comparison.finish()
            }
        }
        if let order { return order }
        // Numbers, empty and non-ASCII text: as `padded` builds them (Characters may join units).
        let padded = padded(actual)
        return padded.utf16.lexicographicallyPrecedes(expected) ? -1 : (padded.utf16.elementsEqual(expected) ? 0 : 1)
    }

    /// The padded form as UTF-16 code units, what a condition compares against.
    static func paddedUnits(_ value: JSONValue) -> [UInt16] {
        let units = withASCIIBytes(of: value) { bytes in
            var units = Units()
            // At most five units a byte, and the closing `-~`: the array is allocated once.
            units.units.reserveCapacity(bytes.count * 5 + 2)
            walkPadded(ascii: bytes, into: &units)
            return units.units
        }
        return units ?? Array(padded(value).utf16)
    }

    /// `body` over the bytes of a non-empty ASCII string value, what
    /// ``walkPadded(ascii:into:)`` pads byte by byte; `nil` for any other value.
    private static func withASCIIBytes<Result>(
        of value: JSONValue,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        guard case .string(var text) = value, !text.isEmpty else { return nil }
        // The check runs on the buffer: the string's own UTF-8 view walks a small string byte by byte, slowly.
        // Line breaks take the long way (see ``padded(_:)``): they change where the build is cut.
        return text.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 && $0 != 0x0A && $0 != 0x0D } ? body(bytes) : nil
        }
    }

    /// Feeds the padded form of a non-empty ASCII string to `sink` unit by
    /// unit (each byte is a UTF-16 code unit), until the sink has seen enough.
    private static func walkPadded<Sink: UnitSink>(ascii whole: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        var start = 0
        var end = whole.count
        if whole[0] == 0x76 { start = 1 }  // "v"
        if let plus = whole[start...].firstIndex(of: 0x2B) { end = plus }  // "+"
        let isSeparator: (UInt8) -> Bool = { $0 == 0x2D || $0 == 0x2E }  // "-", "."
        var partCount = 1
        for index in start..<end where isSeparator(whole[index]) { partCount += 1 }
        var partStart = start
        while !sink.isDone {
            var partEnd = partStart
            while partEnd < end && !isSeparator(whole[partEnd]) { partEnd += 1 }
            if partStart > start { sink.emit(0x2D) }
            let length = partEnd - partStart
            if length > 0 && length < 5 && whole[partStart..<partEnd].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                for _ in length..<5 { sink.emit(0x20) }
            }
            for index in partStart..<partEnd { sink.emit(UInt16(whole[index])) }
            guard partEnd < end else { break }
            partStart = partEnd + 1
        }
        if partCount == 3 {
            sink.emit(0x2D)
            sink.emit(0x7E)  // "~"
        }
    }

    /// Where ``walkPadded(ascii:into:)`` sends the units.
    private protocol UnitSink {
        mutating func emit(_ unit: UInt16)
        /// Whether the rest of the units can no longer matter.
        var isDone: Bool { get }
    }

    /// Keeps every unit.
    private struct Units: UnitSink {
        var units: [UInt16] = []
        mutating func emit(_ unit: UInt16) { units.append(unit) }
        var isDone: Bool { false }
    }

    /// A lexicographic comparison fed one unit at a time; decided at the first difference.
    private struct Comparison: UnitSink {
        let expected: UnsafeBufferPointer<UInt16>
        var position = 0
        /// -1 or 1 once decided; 0 while the units are equal.
        var order = 0

        mutating func emit(_ unit: UInt16) {
            guard order == 0 else { return }
            guard position < expected.count else {
                order = 1
                return
            }
            let other = expected[position]
            if unit != other { order = unit < other ? -1 : 1 }
            position += 1
        }

        var isDone: Bool { order != 0 }

        func finish() -> Int { order != 0 ? order : (position == expected.count ? 0 : -1) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
