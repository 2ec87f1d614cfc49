/// Parses JSON text (RFC 8259) into a ``JSONNode`` tree that remembers positions.
public struct JSONNodeParser {
    /// A syntax error and where it was found.
    public struct SyntaxError: Error, Sendable, Equatable {
        public var message: String
        public var position: SourcePosition
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    /// Deep nesting is refused rather than overflowing the stack.
    private let maximumDepth = 512

    private init(text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Parses a whole document: one value with only white space around it.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONNode {
        var parser = JSONNodeParser(text: text)
        if parser.peek == "\u{FEFF}" { parser.advance() }
        parser.skipWhitespace()
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.peek != nil {
            throw parser.error("unexpected \(parser.describePeek()) after the JSON value")
        }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private func error(_ message: String, at position: SourcePosition? = nil) -> SyntaxError {
        SyntaxError(message: message, position: position ?? self.position)
    }

    private func describePeek() -> String {
        guard let scalar = peek else { return "end of file" }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            return "control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return "character '\(Character(scalar))'"
    }

    private mutating func skipWhitespace() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
            advance()
        }
    }

    private mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws(SyntaxError) {
        guard peek == scalar else { throw error("expected \(what), found \(describePeek())") }
        advance()
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
        let start = position
        guard let scalar = peek else { throw error("expected a value, found end of file") }
        switch scalar {
        case "{": return JSONNode(kind: try parseObject(depth: depth + 1), position: start)
        case "[": return JSONNode(kind: try parseArray(depth: depth + 1), position: start)
        case "\"": return JSONNode(kind: .string(try parseString()), position: start)
        case "t": try parseLiteral("true"); return JSONNode(kind: .bool(true), position: start)
        case "f": try parseLiteral("false"); return JSONNode(kind: .bool(false), position: start)
        case "n": try parseLiteral("null"); return JSONNode(kind: .null, position: start)
        case "-", "0"..."9": return JSONNode(kind: .number(try parseNumber()), position: start)
        default: throw error("expected a value, found \(describePeek())")
        }
    }

    private mutating func parseLiteral(_ word: String) throws(SyntaxError) {
        let start = position
        for expected in word.unicodeScalars {
            guard peek == expected else { throw error("invalid literal, expected '\(word)'", at: start) }
            advance()
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONNode.Kind {
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        advance()
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if peek == "}" {
            advance()
            return .object(members)
        }
        while true {
            skipWhitespace()
            let namePosition = position
            guard peek == "\"" else { throw error("expected a member name in quotes, found \(describePeek())") }
            let name = try parseString()
            skipWhitespace()
            try expect(":", "':' after the member name")
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONNode.Member(name: name, position: namePosition, value: value))
            skipWhitespace()
            if peek == "," {
                advance()
                continue
            }
            try expect("}", "',' or '}' in the object")
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONNode.Kind {
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        advance()
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek == "]" {
            advance()
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            if peek == "," {
                advance()
                continue
            }
            try expect("]", "',' or ']' in the array")
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = position
        var text = ""
        func take(_ parser: inout JSONNodeParser) {
            text.unicodeScalars.append(parser.peek!)
            parser.advance()
        }
        if peek == "-" { take(&self) }
        guard let first = peek, ("0"..."9").contains(first) else {
            throw error("invalid number: expected a digit", at: start)
        }
        if first == "0" {
            take(&self)
        } else {
            while let digit = peek, ("0"..."9").contains(digit) { take(&self) }
        }
        if peek == "." {
            take(&self)
            guard let digit = peek, ("0"..."9").contains(digit) else {
                throw error("invalid number: expected a digit after '.'")
            }
            while let digit = peek, ("0"..."9").contains(digit) { take(&self) }
        }
        if peek == "e" || peek == "E" {
            take(&self)
            if peek == "+" || peek == "-" { take(&self) }
            guard let digit = peek, ("0"..."9").contains(digit) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            while let digit = peek, ("0"..."9").contains(digit) { take(&self) }
        }
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = position
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw error("unterminated string", at: start) }
            switch scalar {
            case "\"":
                advance()
                return String(result)
            case "\\":
                advance()
                result.append(try parseEscape())
            default:
                if scalar.value < 0x20 {
                    throw error("unescaped \(describePeek()) in a string")
                }
                result.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let scalar = peek else { throw error("unterminated escape sequence") }
        advance()
        switch scalar {
        case "\"": return "\""
        case "\\": return "\\"
        case "/": return "/"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "u":
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                // A surrogate pair spells one scalar outside the basic plane.
                guard peek == "\\" else { return "\u{FFFD}" }
                advance()
                guard peek == "u" else { throw error("expected '\\u' for the low surrogate") }
                advance()
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw error("invalid escape sequence '\\\(Character(scalar))'")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Int(String(scalar), radix: 16) else {
                throw error("expected four hex digits after '\\u'")
            }
            value = value * 16 + UInt32(digit)
            advance()
        }
        return value
    }
}
