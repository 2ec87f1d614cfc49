/// Parses JSON text straight into a ``JSONValue``, keeping no positions: the
/// fast path for payloads, which are read far more often than they are wrong.
///
/// It accepts exactly what ``JSONNodeParser`` accepts (a differential fuzz
/// target and tests hold the two together) but says nothing of why it
/// refuses: a caller that needs the reason and the place parses again with
/// ``JSONNodeParser``, which is only done for text that is already refused.
package struct JSONValueParser {
    /// The text was not JSON; ``JSONNodeParser`` says why and where.
    package struct Refused: Error, Sendable {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Members and elements of the objects and arrays still open, end to
    /// end; each is moved out into an array of exactly its size when it
    /// closes, so no array grows while it is being parsed.
    private let openMembers = OpenValues<JSONValue.Member>()
    private let openElements = OpenValues<JSONValue>()
    /// Short strings made already, found again by their bytes; only for a
    /// document large enough to repeat itself (a small one, such as a
    /// request's attributes, would pay for the table and not use it).
    private let shortStrings: ShortStrings?

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        shortStrings = bytes.count >= 4096 ? ShortStrings() : nil
    }

    /// The root object's member whose members go to `onStreamedMember` as
    /// soon as each is parsed (they stay in the tree too), until it ends.
    private var streamedMember: String?
    private var isStreaming = false
    private var onStreamedMember: (JSONValue.Member) -> Void = { _ in }
    /// The root object's member whose elements go to `onStreamedElement`
    /// instead of the tree, when it is an array (the tree keeps it empty).
    private var streamedElements: String?
    private var isStreamingElements = false
    private var onStreamedElement: (JSONValue) -> Void = { _ in }

    /// Parses a whole document: one value with only white space around it.
    package static func parse(_ bytes: some Collection<UInt8>) throws(Refused) -> JSONValue {
        try parse(bytes, streamingMembersOf: nil) { _ in }
    }

    /// Parses a whole document, handing each member of the root object's
    /// first `member` (when it is an object) to `each` as soon as it is
    /// parsed, so that work on it can start while the rest is still read.
    /// A document that is then refused may have handed over some members.
    package static func parse(
        _ bytes: some Collection<UInt8>,
        streamingMembersOf member: String?,
        each: @escaping (JSONValue.Member) -> Void
    ) throws(Refused) -> JSONValue {
        try parse(bytes) { parser in
            parser.streamedMember = member
            parser.onStreamedMember = each
        }
    }

    /// Parses a whole document, handing each element of the root object's
    /// first `member` (when it is an array) to `each` as soon as it is parsed
    /// and keeping it out of the tree, where that array is left empty: a
    /// reader that turns each element into something else holds one at a
    /// time, not the whole tree. A document that is then refused may have
    /// handed over some elements.
    package static func parse(
        _ bytes: some Collection<UInt8>,
        handingOverElementsOf member: String,
        each: @escaping (JSONValue) -> Void
    ) throws(Refused) -> JSONValue {
        try parse(bytes) { parser in
            parser.streamedElements = member
            parser.onStreamedElement = each
        }
    }

    /// Parses a whole document with a parser `configure` set up, over
    /// contiguous bytes (copied into an array first when they are not).
    private static func parse(
        _ bytes: some Collection<UInt8>,
        configure: (inout JSONValueParser) -> Void
    ) throws(Refused) -> JSONValue {
        let result: Result<JSONValue, Refused>? = bytes.withContiguousStorageIfAvailable { buffer in
            var parser = JSONValueParser(buffer)
            configure(&parser)
            do throws(Refused) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        return try parse(Array(bytes), configure: configure)
    }

    private mutating func parseDocument() throws(Refused) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw Refused() }
        return value
    }

    private var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Refused) -> JSONValue {
        guard index < bytes.count else { throw Refused() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw Refused()
        }
    }

    private mutating func parseLiteral(_ word: StaticString) throws(Refused) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Refused() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Refused() }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(Refused) -> JSONValue {
        guard depth <= JSONNodeParser.maximumDepth else { throw Refused() }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        let first = openMembers.count
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw Refused() }
            let name = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw Refused() }
            index += 1
            skipWhitespace()
            let streams = depth == 1 && name == streamedMember
            if streams {
                isStreaming = true
                streamedMember = nil  // only the first of a repeated name, the one lookups find
            }
            let handsOver = depth == 1 && name == streamedElements
            if handsOver {
                isStreamingElements = true
                streamedElements = nil  // only the first of a repeated name
            }
            let value = try parseValue(depth: depth)
            if streams { isStreaming = false }
            if handsOver { isStreamingElements = false }
            let member = JSONValue.Member(name, value)
            if depth == 2 && isStreaming { onStreamedMember(member) }
            openMembers.push(member)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(openMembers.popArray(from: first))
            default: throw Refused()
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Refused) -> JSONValue {
        guard depth <= JSONNodeParser.maximumDepth else { throw Refused() }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        let first = openElements.count
        // The handed-over array is the root member's value, at depth 2; arrays inside its elements are deeper.
        let handsOver = isStreamingElements && depth == 2
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            if handsOver { onStreamedElement(element) } else { openElements.push(element) }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(openElements.popArray(from: first))
            default: throw Refused()
            }
        }
    }

    private func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    private mutating func parseNumber() throws(Refused) -> Double {
        let first = index
        var negative = false
        if peek == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard isDigit(index) else { throw Refused() }
        // Up to 15 significant digits and no exponent: the digits as a whole
        // number are exact in a Double, as is a power of ten up to 10^22, so
        // one division rounds correctly (Clinger's fast path) without strtod.
        var digits: Int64 = 0
        var count = 0
        var fractionDigits = 0
        if peek == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) {
                digits = digits &* 10 &+ Int64(bytes[index] - UInt8(ascii: "0"))
                count += 1
                index += 1
            }
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw Refused() }
            while isDigit(index) {
                digits = digits &* 10 &+ Int64(bytes[index] - UInt8(ascii: "0"))
                if digits != 0 { count += 1 }
                fractionDigits += 1
                index += 1
            }
        }
        var plain = count <= 15 && fractionDigits <= 22
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            plain = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw Refused() }
            while isDigit(index) { index += 1 }
        }
        if plain {
            let magnitude = Double(digits) / Self.powersOfTen[fractionDigits]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Refused() }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    private mutating func parseString() throws(Refused) -> String {
        index += 1
        let start = index
        // Eight bytes at a time to the first quote, backslash or control
        // character: a byte at a time, parsing a payload took 7 % more instructions.
        while index + 8 <= bytes.count {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
            )
            let special = Self.specialBytes(word)
            if special == 0 {
                index += 8
            } else {
                index += special.trailingZeroBitCount >> 3
                break
            }
        }
        // Most strings are plain bytes up to the closing quote: make them in one step.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = shortStrings?.string(bytes, start..<index) ?? ShortStrings.make(bytes, start..<index)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var result = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        var runStart = index
        while true {
            guard index < bytes.count else { throw Refused() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                return result
            } else if byte == UInt8(ascii: "\\") {
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                result.unicodeScalars.append(try parseEscape())
                runStart = index
            } else if byte < 0x20 {
                throw Refused()
            } else {
                index += 1
            }
        }
    }

    /// The high bit of each byte of `word` that may be a quote, a backslash
    /// or a control character; the lowest one set is the first that is (a
    /// byte above it may be marked by the borrow of one that is).
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- 0x2020_2020_2020_2020) & ~word
        return (zeroQuote | zeroBackslash | control) & 0x8080_8080_8080_8080
    }

    private mutating func parseEscape() throws(Refused) -> Unicode.Scalar {
        guard index < bytes.count else { throw Refused() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                // A surrogate pair spells one scalar outside the basic plane.
                guard peek == UInt8(ascii: "\\") else { return "\u{FFFD}" }
                index += 1
                guard peek == UInt8(ascii: "u") else { throw Refused() }
                index += 1
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default: throw Refused()
        }
    }

    private mutating func parseHex4() throws(Refused) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw Refused() }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Refused()
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }
}

/// A stack of values whose top run is moved, not copied, into an array:
/// the members or elements of the containers a parser has open.
private final class OpenValues<Element> {
    private var storage = UnsafeMutablePointer<Element>.allocate(capacity: 64)
    private var capacity = 64
    private(set) var count = 0

    // Inlined where the element type is known, so that making the array
    // needs no run-time lookup of its generic type.
    @inline(__always)
    func push(_ element: Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// The values from `first` to the top, in order, taken off the stack.
    @inline(__always)
    func popArray(from first: Int) -> [Element] {
        // Reserved, then appended: `init(unsafeUninitializedCapacity:)` looks
        // the array's storage type up at run time on every call, two fifths of
        // a payload's decoding; `reserveCapacity` is inlined with the type known.
        var array: [Element] = []
        array.reserveCapacity(count - first)
        for index in first..<count { array.append((storage + index).move()) }
        count = first
        return array
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}

/// The short strings a parse has made, by their bytes: a payload repeats its
/// member names (and many short values) thousands of times, and making a
/// string checks its bytes as UTF-8 each time. A string of up to 16 bytes is
/// its bytes read as two words and its length, so finding it again is one
/// probe into a small table and three comparisons; a string a slot held
/// before is replaced.
private final class ShortStrings {
    private static let slotCount = 256
    private struct Slot {
        var first: UInt64 = 0
        var second: UInt64 = 0
        /// The length; 0 marks an empty slot (an empty string is not kept).
        var count = 0
    }

    private let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
    private let strings = UnsafeMutablePointer<String>.allocate(capacity: slotCount)

    init() {
        slots.initialize(repeating: Slot(), count: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
        slots.deallocate()
    }

    /// The string of `bytes[range]`, as ``String/init(decoding:as:)`` makes it.
    @inline(__always)
    func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let count = range.count
        guard count > 0, count <= 16 else { return Self.make(bytes, range) }
        var first: UInt64 = 0
        var second: UInt64 = 0
        if range.lowerBound + 16 <= bytes.count {
            // Two words from the string's first byte, then only its own bytes kept.
            let raw = UnsafeRawPointer(bytes.baseAddress! + range.lowerBound)
            first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                first &= (1 << (count * 8)) - 1
                second = 0
            } else if count < 16 {
                second &= (1 << ((count - 8) * 8)) - 1
            }
        } else {
            // Near the end of the text: byte by byte, into the same two words.
            for offset in 0..<count {
                let byte = UInt64(bytes[range.lowerBound + offset])
                if offset < 8 { first |= byte << (offset * 8) } else { second |= byte << ((offset - 8) * 8) }
            }
        }
        let mixed = (first ^ (second &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(count)) &* 0xFF51_AFD7_ED55_8CCD
        let index = Int(truncatingIfNeeded: mixed >> 56)
        if slots[index].count == count && slots[index].first == first && slots[index].second == second {
            return strings[index]
        }
        let text = Self.make(bytes, range)
        slots[index] = Slot(first: first, second: second, count: count)
        strings[index] = text
        return text
    }

    /// The string of `bytes[range]`, made anew (repaired where it is not UTF-8).
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
