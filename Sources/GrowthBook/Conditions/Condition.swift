/// A targeting condition compiled once from GrowthBook's MongoDB-style JSON:
/// attribute paths split, operators resolved to cases, constants such as
/// padded versions, lowercased lists and `JSON.stringify` texts computed, so
/// an evaluation walks the tree without string lookups. Its meaning is
/// exactly the JavaScript SDK's (the conformance cases pin it).
package indirect enum Condition: Sendable {
    /// Every part holds (a condition object's members).
    case all([Condition])
    /// `$or`: some part holds (an empty list holds).
    case any([Condition])
    /// `$nor`: no part holds, and there is one (it is `$or` negated, and an empty `$or` holds).
    case none([Condition])
    /// `$not`.
    case not(Condition)
    /// An attribute (a dotted path) matches a test.
    case attribute(path: [String], test: ValueTest)
    /// A top-level attribute (a path of one name, the usual case) matches a test.
    case member(String, test: ValueTest)
    /// Never holds: a condition that is not an object, or an `$and`/`$or` whose operand is not a list.
    case never

    /// Compiles a condition. Something other than an object reads as the
    /// SDK's `Object.entries` reads it: an array or a string names its
    /// elements or characters by index, a number or boolean names nothing
    /// (so it holds), and `null`, which JavaScript cannot read, never holds.
    package init(_ json: JSONValue) {
        guard let members = Self.entries(json) else {
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

    /// A rule's condition as the SDK reads `rule.condition && …`: `nil`
    /// (no condition) when the value is missing or falsy.
    package static func given(_ json: JSONValue?) -> Condition? {
        guard let json, JavaScriptSemantics.truthy(json) else { return nil }
        return Condition(json)
    }

    /// A condition the SDK reads as `condition || {}` (prerequisites, bandit
    /// leaves): a missing or falsy one always holds.
    package static func orEmpty(_ json: JSONValue?) -> Condition {
        given(json) ?? .all([])
    }

    /// `Object.entries(value)` as condition members; `nil` for `null` (where it throws).
    private static func entries(_ value: JSONValue) -> [JSONValue.Member]? {
        switch value {
        // As `JSON.parse` built it: a repeated name once, with its last value.
        case .object(let members): return JavaScriptSemantics.membersAsParsed(members)
        case .array(let elements): return elements.enumerated().map { .init(String($0.offset), $0.element) }
        case .string(let text): return units(of: text).enumerated().map { .init(String($0.offset), $0.element) }
        case .number, .bool: return []
        case .null: return nil
        }
    }

    /// The parts `$or`, `$nor` and `$and` read from their operand, as the SDK
    /// indexes it up to its `length`: a list's elements, a string's
    /// characters; no parts for a value without a length (an object, a
    /// number); `nil` for `null`, where JavaScript throws.
    private static func parts(of operand: JSONValue) -> [Condition]? {
        switch operand {
        case .array(let elements): return elements.map(Condition.init)
        case .string(let text): return units(of: text).map(Condition.init)
        case .object, .number, .bool: return []
        case .null: return nil
        }
    }

    /// A string's UTF-16 code units, each as a string, as JavaScript indexes a string.
    private static func units(of text: String) -> [JSONValue] {
        text.utf16.map { .string(String(decoding: [$0], as: UTF16.self)) }
    }

    /// The condition one member of a condition object sets.
    private static func part(_ member: JSONValue.Member) -> Condition {
        switch member.key {
        // `$or` holds over no parts (the SDK returns true for a length of 0 or none), `$nor` therefore fails.
        case "$or": return parts(of: member.value).map { .any($0) } ?? .never
        case "$nor": return parts(of: member.value).map { .none($0) } ?? .never
        case "$and": return parts(of: member.value).map { .all($0) } ?? .never
        case "$not":
            // `null` throws in the SDK: the condition never holds, `$not` included.
            if member.value == .null { return .never }
            return .not(Condition(member.value))
        default:
            let test = ValueTest(member.value)
            guard member.key.utf8.contains(UInt8(ascii: ".")) else { return .member(member.key, test: test) }
            let path = member.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return .attribute(path: path, test: test)
        }
    }

    /// Whether `attributes` satisfy the condition; `groups` serve `$inGroup`.
    package func holds(for attributes: JSONValue, groups: [String: [JSONValue]]) -> Bool {
        switch self {
        case .all(let parts):
            for part in parts where !part.holds(for: attributes, groups: groups) { return false }
            return true
        case .any(let parts): return parts.isEmpty || parts.contains { $0.holds(for: attributes, groups: groups) }
        case .none(let parts): return !parts.isEmpty && !parts.contains { $0.holds(for: attributes, groups: groups) }
        case .not(let inner): return !inner.holds(for: attributes, groups: groups)
        case .attribute(let path, let test): return test.matches(Self.value(at: path, in: attributes), groups)
        case .member(let name, let test):
            guard case .object(let members) = attributes else { return test.matches(.null, groups) }
            // By index: a `for member in` loop would copy (retain and release) every member it passes.
            // The context's attributes hold each name once (``GrowthBookContext/attributes``).
            for index in members.indices where members[index].key == name {
                return test.matches(members[index].value, groups)
            }
            return test.matches(.null, groups)
        case .never: return false
        }
    }

    /// The attributes the condition reads, as written (`country`, `user.plan`),
    /// in the order they first appear: what a person may want to set to see it hold.
    package var attributeNames: [String] {
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

    /// `a.b.c` in nested objects, as the SDK's `getPath` follows it: into an
    /// object's member, an array's element by index (`items.0`) or its
    /// `length`; any other step reads as `null`, as does a step from a falsy value.
    static func value(at path: [String], in attributes: JSONValue) -> JSONValue {
        var current = attributes
        for part in path {
            switch current {
            case .object(let members):
                guard let index = members.firstIndex(where: { $0.key == part }) else { return .null }
                current = members[index].value
            case .array(let elements):
                if part == "length" {
                    current = .number(Double(elements.count))
                } else if let index = JavaScriptSemantics.arrayIndex(part), Int(index) < elements.count {
                    current = elements[Int(index)]
                } else {
                    return .null
                }
            default: return .null
            }
        }
        return current
    }
}
