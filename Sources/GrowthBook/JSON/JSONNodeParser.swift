/// Parses JSON text (RFC 8259) into a ``JSONNode`` tree that remembers positions.
package struct JSONNodeParser {
    /// A syntax error and where it was found.
    package typealias SyntaxError = JSONSyntaxError

    // UTF-8 bytes: parsing bytes is several times faster than parsing scalars,
    // and every byte that matters to the grammar is ASCII.
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    /// Deep nesting is refused rather than overflowing the stack.
    static let maximumDepth = 512
    /// The root member whose array elements go to `onElement` instead of the tree.
    private var streamedMember: String?
    private var onElement: ((JSONNode) -> Void)?

    private init(text: String) {
        bytes = Array(text.utf8)
    }

    /// Parses a whole document: one value with only white space around it.
    package static func parse(_ text: String) throws(SyntaxError) -> JSONNode {
        var parser = JSONNodeParser(text: text)
        return try parser.parseDocument()
    }

    /// Parses a document whose root object has a large array member, handing
    /// each of its elements to `element` as soon as it is parsed rather than
    /// keeping it in the tree (in the returned root that member is an empty
    /// array). A catalog of thousands of experiments then never exists as one
    /// tree: each experiment's tree is read into the model and freed.
    package static func parse(
        _ text: String,
        streaming member: String,
        element: @escaping (JSONNode) -> Void
    ) throws(SyntaxError) -> JSONNode {
        var parser = JSONNodeParser(text: text)
        parser.streamedMember = member
        parser.onElement = element
        return try parser.parseDocument()
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let node = try parseValue(depth: 0)
        skipWhitespace()
        if peek != nil { throw error("unexpected \(describePeek()) after the JSON value") }
        return node
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// Moves past one byte; columns count characters, so only the first byte
    /// of a multi-byte character moves the column.
    private mutating func advance() {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
        index += 1
    }

    private func error(_ message: String, at position: SourcePosition? = nil) -> SyntaxError {
        SyntaxError(message: message, position: position ?? self.position)
    }

    private func describePeek() -> String {
        guard let byte = peek else { return "end of file" }
        if byte < 0x20 || byte == 0x7F {
            return "control character U+\(String(byte, radix: 16, uppercase: true))"
        }
        // Show the whole character the byte starts.
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "character '\(String(decoding: bytes[index..<end], as: UTF8.self))'"
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            advance()
        }
    }

    private mutating func expect(_ character: Unicode.Scalar, _ what: String) throws(SyntaxError) {
        guard peek == UInt8(ascii: character) else { throw error("expected \(what), found \(describePeek())") }
        advance()
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
        let start = position
        guard let byte = peek else { throw error("expected a value, found end of file") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(kind: try parseObject(depth: depth + 1), position: start)
        case UInt8(ascii: "["): return JSONNode(kind: try parseArray(depth: depth + 1), position: start)
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), position: start)
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return JSONNode(kind: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return JSONNode(kind: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return JSONNode(kind: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(kind: .number(try parseNumber()), position: start)
        default: throw error("expected a value, found \(describePeek())")
        }
    }

    private mutating func parseLiteral(_ word: String) throws(SyntaxError) {
        let start = position
        for expected in word.utf8 {
            guard peek == expected else { throw error("invalid literal, expected '\(word)'", at: start) }
            advance()
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONNode.Kind {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        advance()
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            advance()
            return .object(members)
        }
        while true {
            skipWhitespace()
            let namePosition = position
            guard peek == UInt8(ascii: "\"") else {
                throw error("expected a member name in quotes, found \(describePeek())")
            }
            let name = try parseString()
            skipWhitespace()
            try expect(":", "':' after the member name")
            skipWhitespace()
            let value: JSONNode
            if depth == 1, name == streamedMember, peek == UInt8(ascii: "[") {
                let start = position
                value = JSONNode(kind: try parseArray(depth: depth + 1, streaming: true), position: start)
            } else {
                value = try parseValue(depth: depth)
            }
            members.append(JSONNode.Member(name: name, position: namePosition, value: value))
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                advance()
                continue
            }
            try expect("}", "',' or '}' in the object")
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int, streaming: Bool = false) throws(SyntaxError) -> JSONNode.Kind {
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        advance()
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            advance()
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            if streaming, let onElement { onElement(element) } else { elements.append(element) }
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                advance()
                continue
            }
            try expect("]", "',' or ']' in the array")
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = position
        let first = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        if peek == UInt8(ascii: "-") { advance() }
        guard isDigit(peek) else { throw error("invalid number: expected a digit", at: start) }
        if peek == UInt8(ascii: "0") {
            advance()
        } else {
            while isDigit(peek) { advance() }
        }
        if peek == UInt8(ascii: ".") {
            advance()
            guard isDigit(peek) else { throw error("invalid number: expected a digit after '.'") }
            while isDigit(peek) { advance() }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            guard isDigit(peek) else { throw error("invalid number: expected a digit in the exponent") }
            while isDigit(peek) { advance() }
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = position
        advance()
        var result = ""
        var runStart = index
        while true {
            guard let byte = peek else { throw error("unterminated string", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                // Most strings have no escapes: make them in one step.
                let run = String(decoding: bytes[runStart..<index], as: UTF8.self)
                advance()
                return result.isEmpty ? run : result + run
            case UInt8(ascii: "\\"):
                result += String(decoding: bytes[runStart..<index], as: UTF8.self)
                advance()
                result.unicodeScalars.append(try parseEscape())
                runStart = index
            case 0x00..<0x20:
                throw error("unescaped \(describePeek()) in a string")
            default:
                skipPlainStringBytes()
            }
        }
    }

    /// Moves past the bytes of a string up to its next quote, escape or
    /// control character in one tight loop: strings are most of a catalog,
    /// and none of these bytes is a line break.
    private mutating func skipPlainStringBytes() {
        var end = index
        var characters = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte & 0xC0 != 0x80 { characters += 1 }
            end += 1
        }
        column += characters
        index = end
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = peek else { throw error("unterminated escape sequence") }
        advance()
        switch Unicode.Scalar(byte) {
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
                guard peek == UInt8(ascii: "\\") else { return "\u{FFFD}" }
                advance()
                guard peek == UInt8(ascii: "u") else { throw error("expected '\\u' for the low surrogate") }
                advance()
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Int(String(Unicode.Scalar(byte)), radix: 16) else {
                throw error("expected four hex digits after '\\u'")
            }
            value = value * 16 + UInt32(digit)
            advance()
        }
        return value
    }
}

/// Why a text is not JSON, and where: the first place the text stops being JSON.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// What was wrong, in a few words.
    public var message: String
    /// Where the text stops being JSON.
    public var position: SourcePosition

    /// An error at a place.
    public init(message: String, position: SourcePosition) {
        self.message = message
        self.position = position
    }
}
