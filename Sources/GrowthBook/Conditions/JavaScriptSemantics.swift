import Foundation

/// The few JavaScript semantics GrowthBook's rules are defined by: how values
/// turn into strings and numbers, strict equality, `<` and `JSON.stringify`.
/// `nil` stands for `undefined`.
package enum JavaScriptSemantics {
    /// `String(value)`.
    package static func string(_ value: JSONValue?) -> String {
        guard let value else { return "undefined" }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return numberString(number)
        case .string(let text): return text
        case .array(let elements):
            return elements.map { element in
                if case .null = element { return "" }
                return string(element)
            }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// How JavaScript prints a number (`Number.prototype.toString`): the
    /// shortest digits that read back as the same number, in plain notation
    /// from 1e-6 up to 1e21 and in exponent notation outside. Built from the
    /// digits Swift prints, never through an integer conversion, so no number
    /// of any magnitude can trap here.
    package static func numberString(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }  // -0 prints as 0 too
        // Whole numbers well inside Int64 print their digits, as JavaScript
        // does below 1e21: the common case (weights, counts), without the
        // digit surgery below.
        if number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
        let (digits, exponent) = shortestDigits(abs(number))
        let sign = number < 0 ? "-" : ""
        // `exponent` is the power of ten of the first digit (1.5e3 → 3).
        if exponent >= 21 || exponent < -6 {
            let mantissa = digits.count == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
        }
        if exponent < 0 {
            return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits
        }
        if digits.count <= exponent + 1 {
            return sign + digits + String(repeating: "0", count: exponent + 1 - digits.count)
        }
        let point = digits.index(digits.startIndex, offsetBy: exponent + 1)
        return sign + digits[..<point] + "." + digits[point...]
    }

    /// The shortest round-trip decimal digits of a positive finite number and
    /// the power of ten of its first digit, read off Swift's description.
    private static func shortestDigits(_ number: Double) -> (digits: String, exponent: Int) {
        let text = number.description  // "1.2345e+20", "0.001", "123.5", "5e-324"
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let written = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let whole = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(whole[0])
        let fraction = whole.count > 1 ? String(whole[1]) : ""
        var digits = integerPart + fraction
        var exponent = written + integerPart.count - 1
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        return (digits, exponent)
    }

    /// A number as an array index or count: only when it is a whole number a
    /// JavaScript integer can hold exactly (|n| ≤ 2^53); `nil` otherwise
    /// (fractions, NaN, infinities, 1e19), so no conversion can trap.
    package static func integer(_ number: Double?) -> Int? {
        guard let number, number.isFinite, number == number.rounded(.towardZero),
            abs(number) <= 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }

    /// The hash version a rule asks for, as the SDK reads `hashVersion || fallback`:
    /// 1 or 2; any other number gives 0, a version no hash exists for (not in the experiment).
    package static func hashVersion(_ value: JSONValue?, fallback: Int) -> Int {
        guard let value, truthy(value) else { return fallback }
        switch value {
        case .number(1): return 1
        case .number(2): return 2
        default: return 0
        }
    }

    /// `Number(value)`.
    package static func number(_ value: JSONValue?) -> Double {
        guard let value else { return .nan }
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let number): return number
        case .string(let text): return number(parsing: text)
        case .array(let elements):
            if elements.isEmpty { return 0 }
            return number(.string(string(value)))
        case .object: return .nan
        }
    }

    /// `Number(text)`, JavaScript's StringToNumber: JavaScript's white space
    /// trimmed, then nothing (0), a decimal literal with an optional sign and
    /// exponent, `Infinity` with an optional sign, or an unsigned `0x`, `0o`
    /// or `0b` integer; anything else is NaN.
    static func number(parsing text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end && isJavaScriptWhiteSpace(scalars[start]) { start += 1 }
        while end > start && isJavaScriptWhiteSpace(scalars[end - 1]) { end -= 1 }
        if start == end { return 0 }
        let body = scalars[start..<end]
        if body.count > 2, body[start] == "0", let radix = radix(of: body[start + 1]) {
            var value = 0.0
            for scalar in body.dropFirst(2) {
                guard let digit = Int(String(scalar), radix: radix) else { return .nan }
                value = value * Double(radix) + Double(digit)
            }
            return value
        }
        var index = start
        var negative = false
        if body[index] == "+" || body[index] == "-" {
            negative = body[index] == "-"
            index += 1
        }
        let unsigned = String(String.UnicodeScalarView(body[index...]))
        if unsigned == "Infinity" { return negative ? -.infinity : .infinity }
        // Digits, an optional point and digits (one side at least), an optional exponent.
        var digitsBefore = 0
        var digitsAfter = 0
        while index < end, isDigit(body[index]) {
            digitsBefore += 1
            index += 1
        }
        if index < end, body[index] == "." {
            index += 1
            while index < end, isDigit(body[index]) {
                digitsAfter += 1
                index += 1
            }
        }
        guard digitsBefore + digitsAfter > 0 else { return .nan }
        if index < end, body[index] == "e" || body[index] == "E" {
            index += 1
            if index < end, body[index] == "+" || body[index] == "-" { index += 1 }
            var exponentDigits = 0
            while index < end, isDigit(body[index]) {
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return .nan }
        }
        guard index == end, let value = Double(String(String.UnicodeScalarView(body))) else { return .nan }
        return value
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    /// The radix a `0x`, `0o` or `0b` prefix names.
    private static func radix(of letter: Unicode.Scalar) -> Int? {
        switch letter {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    /// JavaScript's WhiteSpace and LineTerminator: what `Number()` and `trim()`
    /// remove, as `\s` matches them (not U+0085 or U+180E, which Foundation's white space includes).
    static func isJavaScriptWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0xFFFF && RegexUnitSet.whiteSpace.contains(UInt16(scalar.value))
    }

    /// A rule's or experiment's seed as the SDK reads `seed || key`: any truthy
    /// value printed as JavaScript prints it, else the key.
    package static func seed(_ value: JSONValue?, or key: String) -> String {
        truthy(value) ? string(value) : key
    }

    /// `!!value`.
    package static func truthy(_ value: JSONValue?) -> Bool {
        guard let value else { return false }
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }

    /// `a === b`: primitives by value, arrays and objects never (they are distinct objects).
    package static func strictEquals(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.null?, .null?): return true
        case (.bool(let x)?, .bool(let y)?): return x == y
        case (.number(let x)?, .number(let y)?): return x == y
        case (.string(let x)?, .string(let y)?): return x == y
        default: return false
        }
    }

    /// `a < b` (and friends) with JavaScript's coercions: two strings compare
    /// by UTF-16 code units, anything else as numbers (NaN compares false).
    package static func compare(_ a: JSONValue?, _ b: JSONValue?, _ holds: (Int) -> Bool) -> Bool {
        let primitiveA = primitive(a)
        let primitiveB = primitive(b)
        if case .string(let x)? = primitiveA, case .string(let y)? = primitiveB {
            let order = x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : (x == y ? 0 : 1)
            return holds(order)
        }
        let x = number(primitiveA)
        let y = number(primitiveB)
        if x.isNaN || y.isNaN { return false }
        return holds(x < y ? -1 : (x == y ? 0 : 1))
    }

    /// ToPrimitive: arrays and objects become their string.
    private static func primitive(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case .array?, .object?: return .string(string(value))
        default: return value
        }
    }

    /// `JSON.stringify(value)`; `nil` for `undefined`.
    package static func stringify(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        var bytes: [UInt8] = []
        write(value, into: &bytes, asParsed: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `JSON.stringify(JSON.parse(text))` of the text `value` was read from:
    /// members as a JavaScript object holds them, a repeated name once (its
    /// last value, at its first place) and names that are array indexes
    /// (`"0"`, `"17"`) first, in numeric order. What comparing an attribute
    /// with a condition's object or array must print, as the SDK does.
    package static func stringifyAsParsed(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        write(value, into: &bytes, asParsed: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` as `JSON.parse` would have built it: in every object a
    /// repeated name once, with its last value, at its first place. The
    /// value itself when no object repeats a name (the usual case: nothing is copied).
    package static func asParsed(_ value: JSONValue) -> JSONValue {
        rebuiltAsParsed(value) ?? value
    }

    /// ``asParsed(_:)``, or `nil` when nothing in `value` changes.
    private static func rebuiltAsParsed(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .array(let elements):
            var rebuilt: [JSONValue]?
            for index in elements.indices {
                guard let element = rebuiltAsParsed(elements[index]) else { continue }
                if rebuilt == nil { rebuilt = elements }
                rebuilt![index] = element
            }
            return rebuilt.map(JSONValue.array)
        case .object(let members):
            var rebuilt: [JSONValue.Member]?
            for index in members.indices {
                guard let member = rebuiltAsParsed(members[index].value) else { continue }
                if rebuilt == nil { rebuilt = members }
                rebuilt![index].value = member
            }
            let current = rebuilt ?? members
            guard repeatsAName(current) else { return rebuilt.map(JSONValue.object) }
            return .object(lastOfEachName(current))
        default: return nil
        }
    }

    /// Whether two property names are the same name to JavaScript: the same
    /// code units, so the same UTF-8 bytes. Swift's `==` holds canonically
    /// equivalent strings equal (`é` and `e` with a combining accent, the
    /// Kelvin sign and `K`), which JavaScript keeps apart.
    package static func sameName(_ a: String, _ b: String) -> Bool {
        // `withUTF8`, not `withUTF8Bytes`: through it, the attribute lookup
        // this is inlined into stopped being inlined (8 % more instructions for a force rule).
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                guard a.count == b.count else { return false }
                return a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    /// A property name as a key of a dictionary or set: equal and hashed by
    /// its bytes (``sameName(_:_:)``), not by Swift's canonical equivalence.
    private struct PropertyName: Hashable {
        let text: String
        static func == (a: Self, b: Self) -> Bool { sameName(a.text, b.text) }
        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    /// Each name once, with its last value, at its first place: what
    /// `JSON.parse` keeps of an object that repeats a name.
    private static func lastOfEachName(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
        var seen: [PropertyName: Int] = [:]
        var unique: [JSONValue.Member] = []
        for member in members {
            if let at = seen[PropertyName(text: member.key)] {
                unique[at].value = member.value
            } else {
                seen[PropertyName(text: member.key)] = unique.count
                unique.append(member)
            }
        }
        return unique
    }

    /// Whether two members share a name.
    static func repeatsAName(_ members: [JSONValue.Member]) -> Bool {
        if members.count <= 16 {
            // Names of other lengths are told apart without reaching their
            // bytes, and the members are read in place (iterating them copied
            // each, value and all): a user's five names were compared in about
            // 2,800 instructions, now about 500.
            return members.indices.contains { index in
                let length = members[index].key.utf8.count
                return (0..<index).contains {
                    members[$0].key.utf8.count == length && sameName(members[$0].key, members[index].key)
                }
            }
        }
        var names = Set<PropertyName>()
        return !members.allSatisfy { names.insert(PropertyName(text: $0.key)).inserted }
    }

    /// `object[name]` of the object `JSON.parse` makes of `value`: the last
    /// member of that name (a repeated name keeps its last value); `nil` for
    /// a missing name or a value that is not an object.
    package static func property(_ name: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        // By index: `last(where:)` would copy the member, key and all, to return it.
        guard let index = members.lastIndex(where: { sameName($0.key, name) }) else { return nil }
        return members[index].value
    }

    /// The members of an object in the order a JavaScript object made by
    /// `JSON.parse` lists them (see ``stringifyAsParsed(_:)``).
    package static func membersAsParsed(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
        let unique = repeatsAName(members) ? lastOfEachName(members) : members
        // The usual object (no name an index) is already in order: no copy.
        guard unique.contains(where: { arrayIndex($0.key) != nil }) else { return unique }
        var indexes: [(index: UInt32, member: JSONValue.Member)] = []
        var names: [JSONValue.Member] = []
        for member in unique {
            if let index = arrayIndex(member.key) { indexes.append((index, member)) } else { names.append(member) }
        }
        return indexes.sorted { $0.index < $1.index }.map(\.member) + names
    }

    /// The array index a property name is: the canonical decimal form of an
    /// integer from 0 to 2^32 - 2 (`"0"`, `"42"`; not `"01"`, `"-1"`, `"1.0"`).
    package static func arrayIndex(_ name: String) -> UInt32? {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count <= 10, first >= 0x30, first <= 0x39 else { return nil }
        if first == 0x30 { return utf8.count == 1 ? 0 : nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
        }
        return value < 0xFFFF_FFFF ? UInt32(value) : nil
    }

    /// Writes `JSON.stringify(value)` onto `bytes`: one buffer for the whole
    /// document, so a payload of thousands of features is not built out of
    /// thousands of joined strings (which `lab serve` did on every change).
    private static func write(_ value: JSONValue, into bytes: inout [UInt8], asParsed: Bool) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): bytes.append(contentsOf: (number.isFinite ? numberString(number) : "null").utf8)
        case .string(let text): quote(text, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes, asParsed: asParsed)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in (asParsed ? membersAsParsed(members) : members).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                quote(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(member.value, into: &bytes, asParsed: asParsed)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal, escaped as `JSON.stringify` escapes: quote,
    /// backslash and control characters; every other character as it is.
    private static func quote(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `typeof`-like names GrowthBook's `$type` uses.
    package static func typeName(_ value: JSONValue?) -> String {
        guard let value else { return "undefined" }
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
