import GrowthBook

extension AssignmentValue {
    /// A GrowthBook value as an assignment: objects, arrays and `null` stay JSON.
    public init(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .null, .array, .object: self = .json(value)
        }
    }
}

extension JSONValue {
    /// An assignment's value as JSON.
    public init(_ value: AssignmentValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .json(let value): self = value
        }
    }
}
