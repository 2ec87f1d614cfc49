/// Reads a pattern as `new RegExp(source)` does without the `u` flag, with
/// Annex B's web-compatibility grammar (what every browser and Node accept):
/// a `]`, `}` or `{` that is not a quantifier is a literal, `\c` without a
/// letter is a backslash, an escape of a number larger than the count of
/// groups is an octal escape or the digit itself, and any other escaped
/// character is that character.
struct RegexParser {
    private let units: [UInt16]
    private var index = 0
    /// Capturing groups in the whole pattern: whether `\12` is a back reference depends on it.
    private let groupCount: Int
    /// Names of the named groups, in the order of their numbers.
    private let groupNames: [String: Int]
    private var capturesOpened = 0
    /// Groups and lookarounds open around `index`: parsing, compiling and
    /// matching recurse into them, so a pattern of a million `(` is refused.
    private var depth = 0
    /// Deeper nesting is refused (JavaScript engines refuse some depth too).
    static let maximumDepth = 200

    /// Parses `source`; the error says why `new RegExp` would throw.
    static func parse(_ source: String) throws(RegexSyntaxError) -> (pattern: RegexPattern, groups: Int) {
        var parser = RegexParser(units: Array(source.utf16))
        let pattern = try parser.parseDisjunction()
        if parser.index < parser.units.count {
            // Only a `)` stops a disjunction before the end.
            throw parser.error("Unmatched ')'")
        }
        return (pattern, parser.groupCount)
    }

    private init(units: [UInt16]) {
        self.units = units
        (groupCount, groupNames) = Self.scanGroups(units)
    }

    /// Counts the capturing groups and collects their names, before parsing,
    /// as the specification's NcapturingParens and GroupSpecifiers.
    private static func scanGroups(_ units: [UInt16]) -> (Int, [String: Int]) {
        var count = 0
        var names: [String: Int] = [:]
        var index = 0
        var inClass = false
        while index < units.count {
            let unit = units[index]
            if unit == ascii("\\") {
                index += 2
                continue
            }
            if inClass {
                if unit == ascii("]") { inClass = false }
            } else if unit == ascii("[") {
                inClass = true
            } else if unit == ascii("(") {
                if index + 1 < units.count, units[index + 1] == ascii("?") {
                    if index + 2 < units.count, units[index + 2] == ascii("<"), index + 3 < units.count,
                        units[index + 3] != ascii("="), units[index + 3] != ascii("!")
                    {
                        count += 1
                        var end = index + 3
                        while end < units.count, units[end] != ascii(">") { end += 1 }
                        let name = String(decoding: units[(index + 3)..<end], as: UTF16.self)
                        if names[name] == nil { names[name] = count }
                    }
                } else {
                    count += 1
                }
            }
            index += 1
        }
        return (count, names)
    }

    // MARK: - Structure

    private mutating func parseDisjunction() throws(RegexSyntaxError) -> RegexPattern {
        var alternatives = [try parseAlternative()]
        while peek == ascii("|") {
            index += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(RegexSyntaxError) -> RegexPattern {
        var terms: [RegexPattern] = []
        while let unit = peek, unit != ascii("|"), unit != ascii(")") {
            terms.append(try parseTerm())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private mutating func parseTerm() throws(RegexSyntaxError) -> RegexPattern {
        let unit = units[index]
        // Assertions that take no quantifier.
        if unit == ascii("^") || unit == ascii("$") {
            index += 1
            try refuseQuantifier()
            return .assertion(unit == ascii("^") ? .start : .end)
        }
        if unit == ascii("\\"), let next = peek(at: 1), next == ascii("b") || next == ascii("B") {
            index += 2
            try refuseQuantifier()
            return .assertion(next == ascii("b") ? .wordBoundary : .notWordBoundary)
        }
        if unit == ascii("("), peek(at: 1) == ascii("?") {
            let third = peek(at: 2)
            if third == ascii("=") || third == ascii("!") {
                index += 3
                let body = try parseGroupBody()
                // Annex B lets a lookahead take a quantifier.
                return try quantified(.look(body, ahead: true, negated: third == ascii("!")), captures: nil)
            }
            if third == ascii("<"), let fourth = peek(at: 3), fourth == ascii("=") || fourth == ascii("!") {
                index += 4
                let body = try parseGroupBody()
                if quantifierFollows() { throw error("Invalid quantifier") }
                return .look(body, ahead: false, negated: fourth == ascii("!"))
            }
        }
        let capturesBefore = capturesOpened
        let atom = try parseAtom()
        let captures = capturesOpened > capturesBefore ? (capturesBefore + 1)...capturesOpened : nil
        return try quantified(atom, captures: captures)
    }

    /// The atom with the quantifier that follows it, if one does.
    private mutating func quantified(
        _ atom: RegexPattern,
        captures: ClosedRange<Int>?
    ) throws(RegexSyntaxError) -> RegexPattern {
        guard let (min, max, length) = quantifier(at: index) else { return atom }
        index += length
        var greedy = true
        if peek == ascii("?") {
            greedy = false
            index += 1
        }
        if let max, max < min { throw error("numbers out of order in {} quantifier") }
        return .repetition(atom, min: min, max: max, greedy: greedy, captures: captures)
    }

    private func quantifierFollows() -> Bool { quantifier(at: index) != nil }

    private mutating func refuseQuantifier() throws(RegexSyntaxError) {
        if quantifierFollows() { throw error("Nothing to repeat") }
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}` at `start`: bounds and length
    /// (counts too large for any input are capped, as they can never all match).
    private func quantifier(at start: Int) -> (min: Int, max: Int?, length: Int)? {
        guard start < units.count else { return nil }
        switch units[start] {
        case ascii("*"): return (0, nil, 1)
        case ascii("+"): return (1, nil, 1)
        case ascii("?"): return (0, 1, 1)
        case ascii("{"):
            var position = start + 1
            guard let min = number(at: &position) else { return nil }
            var max: Int? = min
            if position < units.count, units[position] == ascii(",") {
                position += 1
                max = number(at: &position)
            }
            guard position < units.count, units[position] == ascii("}") else { return nil }
            return (min, max, position + 1 - start)
        default: return nil
        }
    }

    /// Decimal digits at `position`, moved past them; `nil` when there are none.
    private func number(at position: inout Int) -> Int? {
        var value: Int?
        while position < units.count, let digit = Self.decimal(units[position]) {
            value = Swift.min((value ?? 0) * 10 + digit, Int(Int32.max))
            position += 1
        }
        return value
    }

    private mutating func parseGroupBody() throws(RegexSyntaxError) -> RegexPattern {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth { throw error("groups nested more than \(Self.maximumDepth) deep") }
        let body = try parseDisjunction()
        guard peek == ascii(")") else { throw error("Unterminated group") }
        index += 1
        return body
    }

    private mutating func parseAtom() throws(RegexSyntaxError) -> RegexPattern {
        let unit = units[index]
        switch unit {
        case ascii("."):
            index += 1
            return .set(.lineTerminators, negated: true)
        case ascii("("):
            index += 1
            if peek == ascii("?") {
                if peek(at: 1) == ascii(":") {
                    index += 2
                    return .group(try parseGroupBody(), capture: nil)
                }
                if peek(at: 1) == ascii("<") {
                    index += 2
                    let name = try parseGroupName()
                    capturesOpened += 1
                    let number = capturesOpened
                    if groupNames[name] != number { throw error("Duplicate capture group name") }
                    return .group(try parseGroupBody(), capture: number)
                }
                throw error("Invalid group")
            }
            capturesOpened += 1
            let number = capturesOpened
            return .group(try parseGroupBody(), capture: number)
        case ascii("["):
            index += 1
            return try parseClass()
        case ascii("*"), ascii("+"), ascii("?"):
            throw error("Nothing to repeat")
        case ascii("{"):
            if quantifierFollows() { throw error("Nothing to repeat") }
            index += 1
            return .unit(unit)
        case ascii("\\"):
            index += 1
            return try parseAtomEscape()
        default:
            index += 1
            return .unit(unit)
        }
    }

    /// `name>` after `(?<` or `\k<`: an identifier, and the closing `>`.
    private mutating func parseGroupName() throws(RegexSyntaxError) -> String {
        let start = index
        while let unit = peek, unit != ascii(">") {
            let isStart = index == start
            guard Self.isIdentifierUnit(unit, first: isStart) else { throw error("Invalid capture group name") }
            index += 1
        }
        guard peek == ascii(">"), index > start else { throw error("Invalid capture group name") }
        let name = String(decoding: units[start..<index], as: UTF16.self)
        index += 1
        return name
    }

    /// ASCII letters, `$`, `_`, digits after the first unit, and letters of
    /// other scripts (a name spelled with `\u` escapes is refused here).
    private static func isIdentifierUnit(_ unit: UInt16, first: Bool) -> Bool {
        switch unit {
        case ascii("a")...ascii("z"), ascii("A")...ascii("Z"), ascii("$"), ascii("_"): return true
        case ascii("0")...ascii("9"): return !first
        case 0x80...:
            guard let scalar = Unicode.Scalar(unit) else { return false }
            return first ? scalar.properties.isIDStart : scalar.properties.isIDContinue
        default: return false
        }
    }

    // MARK: - Escapes

    /// After a `\` outside a class.
    private mutating func parseAtomEscape() throws(RegexSyntaxError) -> RegexPattern {
        guard let unit = peek else { throw error("\\ at end of pattern") }
        if let set = Self.classEscape(unit) {
            index += 1
            return set
        }
        if unit >= ascii("1") && unit <= ascii("9") {
            var position = index
            let number = number(at: &position) ?? 0
            if number <= groupCount {
                index = position
                return .backReference(number)
            }
            return .unit(parseLegacyOctalOrDigit())
        }
        if unit == ascii("k"), !groupNames.isEmpty {
            index += 1
            guard peek == ascii("<") else { throw error("Invalid named reference") }
            index += 1
            let name = try parseGroupName()
            guard let number = groupNames[name] else { throw error("Invalid named capture referenced") }
            return .backReference(number)
        }
        if unit == ascii("c"), let letter = peek(at: 1), Self.isASCIILetter(letter) {
            index += 2
            return .unit(letter % 32)
        }
        if unit == ascii("c") {
            // Annex B: the backslash stands for itself, and `c` is read next.
            return .unit(ascii("\\"))
        }
        return .unit(parseCharacterEscape())
    }

    /// `\d`, `\D`, `\w`, `\W`, `\s`, `\S`.
    private static func classEscape(_ unit: UInt16) -> RegexPattern? {
        switch unit {
        case ascii("d"): return .set(.digits, negated: false)
        case ascii("D"): return .set(.digits, negated: true)
        case ascii("w"): return .set(.wordUnits, negated: false)
        case ascii("W"): return .set(.wordUnits, negated: true)
        case ascii("s"): return .set(.whiteSpace, negated: false)
        case ascii("S"): return .set(.whiteSpace, negated: true)
        default: return nil
        }
    }

    /// The unit a character escape names, at `index` (after the `\`):
    /// control letters, `\0`, hexadecimal and octal escapes, or the escaped unit itself.
    private mutating func parseCharacterEscape() -> UInt16 {
        let unit = units[index]
        if let control = Self.controlEscapes[unit] {
            index += 1
            return control
        }
        switch unit {
        case ascii("0")...ascii("9"): return parseLegacyOctalOrDigit()
        case ascii("x"):
            index += 1
            if let value = hexadecimal(count: 2) { return value }
            return unit
        case ascii("u"):
            index += 1
            if let value = hexadecimal(count: 4) { return value }
            return unit
        default:
            index += 1
            return unit
        }
    }

    /// `\f`, `\n`, `\r`, `\t`, `\v`: the letter → the unit it stands for.
    private static let controlEscapes: [UInt16: UInt16] = [
        ascii("f"): 0x0C, ascii("n"): 0x0A, ascii("r"): 0x0D, ascii("t"): 0x09, ascii("v"): 0x0B,
    ]

    /// `\0`, a legacy octal escape up to `\377`, or `\8` and `\9` as the digits themselves.
    private mutating func parseLegacyOctalOrDigit() -> UInt16 {
        let first = units[index]
        index += 1
        guard first <= ascii("7") else { return first }
        var value = first - ascii("0")
        // 0-3 take two more octal digits, 4-7 one more.
        let more = value <= 3 ? 2 : 1
        for _ in 0..<more {
            guard let next = peek, next >= ascii("0"), next <= ascii("7") else { break }
            value = value * 8 + (next - ascii("0"))
            index += 1
        }
        return value
    }

    /// `count` hexadecimal digits at `index`, consumed only when all are there.
    private mutating func hexadecimal(count: Int) -> UInt16? {
        guard index + count <= units.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<count {
            guard let digit = Self.hexDigit(units[index + offset]) else { return nil }
            value = value * 16 + digit
        }
        index += count
        return value
    }

    // MARK: - Classes

    /// After `[`: ranges, single units and class escapes up to `]`.
    private mutating func parseClass() throws(RegexSyntaxError) -> RegexPattern {
        var negated = false
        if peek == ascii("^") {
            negated = true
            index += 1
        }
        var set = RegexUnitSet()
        while true {
            guard let unit = peek else { throw error("Unterminated character class") }
            if unit == ascii("]") {
                index += 1
                break
            }
            let first = try parseClassAtom()
            if peek == ascii("-"), let after = peek(at: 1), after != ascii("]") {
                index += 1
                let second = try parseClassAtom()
                switch (first, second) {
                case (.unit(let lower), .unit(let upper)):
                    if lower > upper { throw error("Range out of order in character class") }
                    set.insert(lower...upper)
                default:
                    // Annex B: a range with a class escape at either end is its two ends and a `-`.
                    set.formUnion(first.set)
                    set.insert(ascii("-")...ascii("-"))
                    set.formUnion(second.set)
                }
            } else {
                set.formUnion(first.set)
            }
        }
        return .set(set, negated: negated)
    }

    /// One unit or class escape in a class.
    private enum ClassAtom {
        case unit(UInt16)
        case escape(RegexUnitSet)

        var set: RegexUnitSet {
            switch self {
            case .unit(let unit): return RegexUnitSet([unit...unit])
            case .escape(let set): return set
            }
        }
    }

    private mutating func parseClassAtom() throws(RegexSyntaxError) -> ClassAtom {
        let unit = units[index]
        index += 1
        guard unit == ascii("\\") else { return .unit(unit) }
        guard let escaped = peek else { throw error("\\ at end of pattern") }
        if case .set(let set, let negated)? = Self.classEscape(escaped) {
            index += 1
            return .escape(negated ? set.complement : set)
        }
        switch escaped {
        case ascii("b"):
            index += 1
            return .unit(0x08)
        case ascii("-"):
            index += 1
            return .unit(escaped)
        case ascii("c"):
            // In a class a digit or `_` also makes a control escape (Annex B's ClassControlLetter).
            if let letter = peek(at: 1),
                Self.isASCIILetter(letter) || Self.decimal(letter) != nil || letter == ascii("_")
            {
                index += 2
                return .unit(letter % 32)
            }
            return .unit(ascii("\\"))
        case ascii("k") where !groupNames.isEmpty:
            throw error("Invalid escape")
        default:
            return .unit(parseCharacterEscape())
        }
    }

    // MARK: - Units

    private var peek: UInt16? { index < units.count ? units[index] : nil }

    private func peek(at offset: Int) -> UInt16? {
        index + offset < units.count ? units[index + offset] : nil
    }

    private func error(_ reason: String) -> RegexSyntaxError { RegexSyntaxError(reason: reason, offset: index) }

    private static func decimal(_ unit: UInt16) -> Int? {
        unit >= 0x30 && unit <= 0x39 ? Int(unit - 0x30) : nil
    }

    private static func hexDigit(_ unit: UInt16) -> UInt16? {
        switch unit {
        case 0x30...0x39: return unit - 0x30
        case 0x41...0x46: return unit - 0x41 + 10
        case 0x61...0x66: return unit - 0x61 + 10
        default: return nil
        }
    }

    private static func isASCIILetter(_ unit: UInt16) -> Bool {
        (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A)
    }
}

/// The UTF-16 unit of an ASCII character, as patterns are read.
private func ascii(_ character: Unicode.Scalar) -> UInt16 { UInt16(character.value) }
