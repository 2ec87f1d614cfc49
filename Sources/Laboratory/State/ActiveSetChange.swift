/// What entered and what left the active set of assignments.
public struct ActiveSetChange: Sendable, Hashable {
    public var entered: [Assignment]
    public var left: [Assignment]

    public init(entered: [Assignment], left: [Assignment]) {
        self.entered = entered
        self.left = left
    }

    public var isEmpty: Bool { entered.isEmpty && left.isEmpty }

    /// Computes the change from `old` to `new`, sorted so events come in a stable order.
    ///
    /// Text is compared exactly, scalar by scalar: Swift's `==` holds `é`
    /// and `e` + a combining accent equal, but the app gets different bytes,
    /// and a value that only looks unchanged must not hide a change (nor
    /// one that is unchanged produce an event).
    public static func between(
        _ old: some Collection<Assignment>,
        _ new: some Collection<Assignment>
    ) -> ActiveSetChange {
        let order: (Assignment, Assignment) -> Bool = {
            ($0.source, $0.experiment, $0.key) < ($1.source, $1.experiment, $1.key)
        }
        let before = Set(old.map(ExactAssignment.init))
        let after = Set(new.map(ExactAssignment.init))
        return ActiveSetChange(
            entered: after.subtracting(before).map(\.assignment).sorted(by: order),
            left: before.subtracting(after).map(\.assignment).sorted(by: order)
        )
    }
}

/// An assignment compared and hashed by the exact scalars of its text.
private struct ExactAssignment: Hashable {
    let assignment: Assignment

    private var fields: [String] {
        [assignment.source, assignment.experiment, assignment.variant, assignment.key]
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        zip(lhs.fields, rhs.fields).allSatisfy { $0.unicodeScalars.elementsEqual($1.unicodeScalars) }
            && sameValue(lhs.assignment.value, rhs.assignment.value)
    }

    func hash(into hasher: inout Hasher) {
        for field in fields {
            for scalar in field.unicodeScalars { hasher.combine(scalar.value) }
            hasher.combine(0xFFFF_FFFF as UInt32)  // a separator no scalar equals
        }
        switch assignment.value {
        case .string(let text): for scalar in text.unicodeScalars { hasher.combine(scalar.value) }
        case .number(let number): hasher.combine(number)
        case .bool(let flag): hasher.combine(flag)
        case .json(let value): hasher.combine(value)
        }
    }

    private static func sameValue(_ lhs: AssignmentValue, _ rhs: AssignmentValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return lhs == rhs
        }
    }
}
