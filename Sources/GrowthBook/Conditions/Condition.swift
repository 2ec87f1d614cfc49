/// A targeting condition compiled once from GrowthBook's MongoDB-style JSON:
/// attribute paths split, operators resolved to cases, constants such as
/// padded versions, lowercased lists and `JSON.stringify` texts computed, so
/// an evaluation walks the tree without string lookups. Its meaning is
/// exactly the JavaScript SDK's (the conformance cases pin it).
public indirect enum Condition: Sendable {
    /// Every part holds (a condition object's members).
    case all([Condition])
    /// `$or`: some part holds (an empty list holds).
    case any([Condition])
    /// `$nor`: no part holds.
    case none([Condition])
    /// `$not`.
    case not(Condition)
    /// An attribute (a dotted path) matches a test.
    case attribute(path: [String], test: ValueTest)
    /// A top-level attribute (a path of one name, the usual case) matches a test.
    case member(String, test: ValueTest)
    /// Never holds: a condition that is not an object, or an `$and`/`$or` whose operand is not a list.
    case never

    /// Compiles a condition.
    public init(_ json: JSONValue) {
        guard case .object(let members) = json else {
            self = .never
            return
        }
        // The usual condition names one attribute: it needs no list of parts.
        if members.count == 1 {
            self = Self.part(members[0])
            return
        }
        self = .all(members.map(Self.part))
    }

    /// The condition one member of a condition object sets.
    private static func part(_ member: JSONValue.Member) -> Condition {
        switch member.key {
        case "$or": return member.value.elements.map { .any($0.map(Condition.init)) } ?? .never
        // A `$nor` over anything but a list holds: its `$or` fails.
        case "$nor": return member.value.elements.map { .none($0.map(Condition.init)) } ?? .all([])
        case "$and": return member.value.elements.map { .all($0.map(Condition.init)) } ?? .never
        case "$not": return .not(Condition(member.value))
        default:
            let test = ValueTest(member.value)
            guard member.key.utf8.contains(UInt8(ascii: ".")) else { return .member(member.key, test: test) }
            let path = member.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return .attribute(path: path, test: test)
        }
    }

    /// Whether `attributes` satisfy the condition; `groups` serve `$inGroup`.
    public func holds(for attributes: JSONValue, groups: [String: [JSONValue]]) -> Bool {
        switch self {
        case .all(let parts):
            for part in parts where !part.holds(for: attributes, groups: groups) { return false }
            return true
        case .any(let parts): return parts.isEmpty || parts.contains { $0.holds(for: attributes, groups: groups) }
        case .none(let parts): return !parts.contains { $0.holds(for: attributes, groups: groups) }
        case .not(let inner): return !inner.holds(for: attributes, groups: groups)
        case .attribute(let path, let test): return test.matches(Self.value(at: path, in: attributes), groups)
        case .member(let name, let test):
            guard case .object(let members) = attributes else { return test.matches(.null, groups) }
            // By index: a `for member in` loop would copy (retain and release) every member it passes.
            for index in members.indices where members[index].key == name {
                return test.matches(members[index].value, groups)
            }
            return test.matches(.null, groups)
        case .never: return false
        }
    }

    /// The attributes the condition reads, as written (`country`, `user.plan`),
    /// in the order they first appear: what a person may want to set to see it hold.
    public var attributeNames: [String] {
        var names: [String] = []
        collectNames(into: &names)
        return names
    }

    private func collectNames(into names: inout [String]) {
        switch self {
        case .all(let parts), .any(let parts), .none(let parts):
            for part in parts { part.collectNames(into: &names) }
        case .not(let inner): inner.collectNames(into: &names)
        case .attribute(let path, _):
            let name = path.joined(separator: ".")
            if !names.contains(name) { names.append(name) }
        case .member(let name, _):
            if !names.contains(name) { names.append(name) }
        case .never: break
        }
    }

    /// `a.b.c` in nested objects; a missing step reads as `null`, as in GrowthBook.
    static func value(at path: [String], in attributes: JSONValue) -> JSONValue {
        var current = attributes
        for part in path {
            guard case .object(let members) = current else { return .null }
            guard let index = members.firstIndex(where: { $0.key == part }) else { return .null }
            current = members[index].value
        }
        return current
    }
}
