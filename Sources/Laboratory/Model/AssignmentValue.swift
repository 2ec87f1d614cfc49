import Foundation
import GrowthBook

/// The value of one assignment: a string, a number, a boolean, or JSON.
///
/// Numbers are kept as `Double`; integral ones print and encode without a
/// fraction (`12`, not `12.0`), as they were written in the catalog.
/// GrowthBook features may hold objects, arrays and `null`: they stay JSON
/// (``json(_:)``) through outputs and events, never a JSON string in a string.
public enum AssignmentValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// An object, an array or `null`.
    case json(JSONValue)

    /// The string, when this value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this value is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean, when this value is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an `Int` when it is integral and fits.
    var integralValue: Int? {
        guard case .number(let value) = self, value.rounded() == value,
            abs(value) < 9.0e15
        else { return nil }
        return Int(value)
    }
}

extension AssignmentValue: CustomStringConvertible {
    /// The value as a person reads it: strings bare, numbers without a
    /// needless fraction, booleans as `true` / `false`.
    public var description: String {
        switch self {
        case .string(let value): return value
        case .number(let value):
            if let integral = integralValue { return String(integral) }
            return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .json(let value): return value.jsonText
        }
    }
}

extension AssignmentValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .json(try container.decode(JSONValue.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if let integral = integralValue { try container.encode(integral) } else { try container.encode(value) }
        case .bool(let value): try container.encode(value)
        case .json(let value): try container.encode(value)
        }
    }
}

extension AssignmentValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension AssignmentValue {
    /// The value as text that says its type (`s:blue`, `n:12`, `b:1`,
    /// `j:{"a":1}`), so a store can keep booleans apart from numbers in a text column.
    public var taggedText: String {
        switch self {
        case .string(let text): return "s:" + text
        case .number(let number): return "n:" + String(number)
        case .bool(let flag): return flag ? "b:1" : "b:0"
        case .json(let value): return "j:" + value.jsonText
        }
    }

    /// Reads ``taggedText`` back, scalar for scalar; `nil` for other text.
    public init?(taggedText text: String) {
        // By bytes, not characters: a value that starts with a combining mark
        // joins the colon into one character, and would lose its first scalar.
        let bytes = text.utf8
        guard bytes.count >= 2, bytes.dropFirst().first == UInt8(ascii: ":") else { return nil }
        let body = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        switch bytes.first {
        case UInt8(ascii: "s"): self = .string(body)
        case UInt8(ascii: "n"):
            guard let number = Double(body) else { return nil }
            self = .number(number)
        case UInt8(ascii: "b"): self = .bool(body == "1")
        case UInt8(ascii: "j"):
            guard let value = try? JSONValue.parse(body) else { return nil }
            self = .json(value)
        default: return nil
        }
    }
}
