#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What entered and what left the active set of assignments.
public struct ActiveSetChange: Sendable, Hashable {
    /// Assignments that are active now and were not before.
    public var entered: [Assignment]
    /// Assignments that were active before and are not now.
    public var left: [Assignment]

    /// A change of these assignments.
    public init(entered: [Assignment], left: [Assignment]) {
        self.entered = entered
        self.left = left
    }

    /// Whether nothing entered or left.
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
        between(Array(old), Array(new))
    }

    /// The change from `old` to `new`, as the overload for any collections
    /// computes it, from two arrays read in place.
    public static func between(_ old: [Assignment], _ new: [Assignment]) -> ActiveSetChange {
        let order: (Assignment, Assignment) -> Bool = {
            ($0.source, $0.experiment, $0.key) < ($1.source, $1.experiment, $1.key)
        }
        // An active set holds one assignment per source, experiment and key,
        // and both sides come sorted the same way as a rule (the manager's
        // order), so most of them pair up where they stand: only the rest
        // are hashed. A side out of order only leaves more to hash. (Arrays,
        // not any collection: a generic called from another module is not
        // specialized, and reading each of 20,000 assignments through it copied it.)
        var oldRest: [ExactAssignment] = []
        var newRest: [ExactAssignment] = []
        let paired = min(old.count, new.count)
        for index in 0..<paired where !ExactAssignment.same(old[index], new[index]) {
            oldRest.append(ExactAssignment(assignment: old[index]))
            newRest.append(ExactAssignment(assignment: new[index]))
        }
        oldRest += old[paired...].map(ExactAssignment.init)
        newRest += new[paired...].map(ExactAssignment.init)
        let before = Set(oldRest)
        let after = Set(newRest)
        return ActiveSetChange(
            entered: after.subtracting(before).map(\.assignment).sorted(by: order),
            left: before.subtracting(after).map(\.assignment).sorted(by: order)
        )
    }
}

/// An assignment compared and hashed by the exact scalars of its text: by
/// its UTF-8 bytes, which are the same exactly when the scalars are.
private struct ExactAssignment: Hashable {
    let assignment: Assignment

    static func == (lhs: Self, rhs: Self) -> Bool {
        same(lhs.assignment, rhs.assignment)
    }

    /// Whether the two are the same, byte for byte.
    static func same(_ a: Assignment, _ b: Assignment) -> Bool {
        same(a.key, b.key) && same(a.experiment, b.experiment) && same(a.source, b.source)
            && same(a.variant, b.variant) && sameValue(a.value, b.value)
    }

    func hash(into hasher: inout Hasher) {
        for field in [assignment.source, assignment.experiment, assignment.variant, assignment.key] {
            Self.combine(field, into: &hasher)
            hasher.combine(0xFF as UInt8)  // a separator no UTF-8 text holds
        }
        switch assignment.value {
        case .string(let text): Self.combine(text, into: &hasher)
        case .number(let number): hasher.combine(number)
        case .bool(let flag): hasher.combine(flag)
        case .json(let value): hasher.combine(value)
        }
    }

    private static func combine(_ text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte for byte; text that shares its storage (as an unchanged
    /// assignment's does) is the same without reading it.
    private static func same(_ lhs: String, _ rhs: String) -> Bool {
        let count = lhs.utf8.count
        guard count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                guard count > 0, let a = left.baseAddress, let b = right.baseAddress, a != b else { return true }
                return memcmp(a, b, count) == 0
            }
        }
        if let compared, let compared { return compared }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    private static func sameValue(_ lhs: AssignmentValue, _ rhs: AssignmentValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return same(a, b)
        default: return lhs == rhs
        }
    }
}
