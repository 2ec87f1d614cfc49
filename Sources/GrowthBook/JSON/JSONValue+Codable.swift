/// JSON values inside documents other code encodes and decodes (command
/// output, assignments). Foundation's coders keep no member order, so an
/// object's members may come out in another order.
extension JSONValue: Codable {
    /// A member name as a coding key.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Name.self) {
            self = .object(
                try object.allKeys.map { .init($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) }
            )
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var object = encoder.container(keyedBy: Name.self)
            for member in members { try object.encode(member.value, forKey: Name(stringValue: member.key)) }
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let flag):
            var value = encoder.singleValueContainer()
            try value.encode(flag)
        case .number(let number):
            var value = encoder.singleValueContainer()
            // Whole numbers as integers, so `12` is not written `12.0`.
            if let whole = JavaScriptSemantics.integer(number) {
                try value.encode(whole)
            } else {
                try value.encode(number)
            }
        case .string(let text):
            var value = encoder.singleValueContainer()
            try value.encode(text)
        }
    }
}
