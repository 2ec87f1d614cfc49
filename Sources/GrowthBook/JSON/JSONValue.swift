/// Any JSON value, objects keeping their member order (GrowthBook compares
/// some values as JavaScript's `JSON.stringify` prints them, which is ordered).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; JSON has one kind, read as a `Double` as JavaScript does.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object: its members in the order they were written.
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first member named `key`, for an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // By index: `first(where:)` would copy the member, key and all, to return it.
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members[index].value
    }

    /// The members, for an object.
    public var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, for an array.
    public var elements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text, for a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, for a number.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The flag, for a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// Parses JSON text; refused text is parsed again with positions, for the error's reason and place.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        if let value = try? JSONValueParser.parse(text.utf8) { return value }
        return JSONValue(try JSONNodeParser.parse(text))
    }

    /// A word for the kind of value, used in "expected …, found …" messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value of a parsed node, positions dropped.
    package init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members): self = .object(members.map { Member($0.name, JSONValue($0.value)) })
        }
    }
}

extension JSONValue {
    /// Compact JSON text, members in their order, as JavaScript's `JSON.stringify` writes it.
    public var jsonText: String { JavaScriptSemantics.stringify(self) ?? "null" }

    /// JSON text indented two spaces a level, members in their order, for people to read;
    /// control characters in strings are escaped, as in ``jsonText``.
    public var prettyText: String {
        var text = ""
        writePretty(into: &text, indent: "")
        return text
    }

    private func writePretty(into text: inout String, indent: String) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += indent + "  "
                element.writePretty(into: &text, indent: indent + "  ")
                text += index < elements.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += indent + "  " + JSONValue.string(member.key).jsonText + ": "
                member.value.writePretty(into: &text, indent: indent + "  ")
                text += index < members.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        default:
            text += jsonText
        }
    }
}
