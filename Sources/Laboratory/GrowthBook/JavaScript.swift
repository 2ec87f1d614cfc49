import Foundation

/// The few JavaScript semantics GrowthBook's rules are defined by: how values
/// turn into strings and numbers, strict equality, `<` and `JSON.stringify`.
/// `nil` stands for `undefined`.
enum JavaScript {
    /// `String(value)`.
    static func string(_ value: JSONValue?) -> String {
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

    /// How JavaScript prints a number (for the values JSON can hold).
    static func numberString(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e21 { return String(Int64(number)) }
        return String(number)
    }

    /// `Number(value)`.
    static func number(_ value: JSONValue?) -> Double {
        guard let value else { return .nan }
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let number): return number
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return 0 }
            if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
                return UInt64(trimmed.dropFirst(2), radix: 16).map(Double.init) ?? .nan
            }
            if trimmed == "Infinity" || trimmed == "+Infinity" { return .infinity }
            if trimmed == "-Infinity" { return -.infinity }
            // Swift accepts "nan" and "inf"; JavaScript does not.
            guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return .nan }
            return Double(trimmed) ?? .nan
        case .array(let elements):
            if elements.isEmpty { return 0 }
            return number(.string(string(value)))
        case .object: return .nan
        }
    }

    /// `!!value`.
    static func truthy(_ value: JSONValue?) -> Bool {
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
    static func strictEquals(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
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
    static func compare(_ a: JSONValue?, _ b: JSONValue?, _ holds: (Int) -> Bool) -> Bool {
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
    static func stringify(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.isFinite ? numberString(number) : "null"
        case .string(let text): return quote(text)
        case .array(let elements): return "[" + elements.map { stringify($0) ?? "null" }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quote($0.key) + ":" + (stringify($0.value) ?? "null") }.joined(separator: ",") + "}"
        }
    }

    private static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `typeof`-like names GrowthBook's `$type` uses.
    static func typeName(_ value: JSONValue?) -> String {
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
