import GrowthBook

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
