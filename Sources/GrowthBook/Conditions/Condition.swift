/// A targeting condition compiled once from GrowthBook's MongoDB-style JSON
/// into a flat program: the parts in preorder, each attribute's name with
/// its hash, its test compiled (operators resolved to cases, constants such
/// as padded versions, lowercased lists and `JSON.stringify` texts
/// computed). Evaluating walks the parts in one array, finds each attribute
/// through the user's ``AttributeTable`` by hash (a compact condition's by
/// its slot, ``AttributeSlots``), and counts no references
/// for the parts it passes. The usual condition, an object of attributes
/// with plain tests, is also compiled into plain values
/// (``CompactCondition``), which a user's attribute table answers without
/// copying a test or a value. Its meaning is exactly the JavaScript SDK's
/// (the conformance cases pin it).
package final class Condition: Sendable {
    /// One part of the condition. A part's own parts follow it, up to its ``end``.
    struct Part: Sendable {
        enum Kind: UInt8, Sendable {
            /// Every part holds (a condition object's members, `$and`); none holds too.
            case all
            /// `$or`: some part holds (an empty list holds).
            case any
            /// `$nor`: no part holds, and there is one (it is `$or` negated, and an empty `$or` holds).
            case none
            /// `$not`: its one part does not hold.
            case not
            /// A top-level attribute (``name``) matches a test (``test``).
            case member
            /// An attribute at a dotted path (``Condition/paths``) matches a test.
            case path
            /// Never holds: a condition that is not an object, or an
            /// `$and`/`$or` whose operand is not a list.
            case never
        }

        var kind: Kind
        /// Where this part and its parts end: the next sibling starts there.
        var end: Int32
        /// The path (``path``), by position in ``Condition/paths``.
        var operand: Int32 = 0
        /// The test in plain values, for a member of a condition that has
        /// them (``CompactCondition``).
        var compact = CompactCondition.Test()
        /// The attribute's name (``member``; a ``path``'s as written, dots
        /// and all); empty for the other kinds.
        var name = Name(text: "", key: (0, true))
        /// The attribute's test (``member``, ``path``); `null` for the other kinds.
        ///
        /// The name and the test are kept in the part, where they had a list
        /// of their own: an allocation fewer for every condition compiled.
        /// Evaluation reads them in place from ``Condition/parts``, never
        /// from a copy of the part (which would count references to both)
        /// nor through the parts' buffer (which retained the name).
        var test = ValueTest.null
    }

    /// An attribute name with its ``NameHash/key(of:)``.
    struct Name: Sendable {
        var text: String
        var key: (hash: UInt32, isASCII: Bool)
    }

    let parts: ContiguousArray<Part>
    let paths: [[String]]
    /// The same condition in plain values, when it is an object of
    /// attributes with the usual tests (``CompactCondition``).
    let compact: CompactCondition

    /// Compiles a condition. Something other than an object reads as the
    /// SDK's `Object.entries` reads it: an array or a string names its
    /// elements or characters by index, a number or boolean names nothing
    /// (so it holds), and `null`, which JavaScript cannot read, never holds.
    package init(_ json: JSONValue) {
        var builder = Builder()
        // The usual condition is an object of attributes: room for each at
        // once (and for their group), where growing would copy each array twice.
        if case .object(let members) = json, members.count > 1 {
            builder.parts.reserveCapacity(members.count + 1)
        }
        builder.condition(json)
        compact = CompactCondition(parts: &builder.parts)
        parts = builder.parts
        paths = builder.paths
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
        given(json) ?? Condition(.object([]))
    }

    /// Whether the condition is an object of `count` attributes, each with
    /// a test in plain values (``CompactCondition``), none named like an
    /// operator: then the payload checks (`ConditionChecker`) find nothing
    /// in it, which the compile tells without a walk of its own. Such a test
    /// is a value, or one operator that is not `$regex`, `$not`, `$size` or
    /// `$elemMatch`. `count` is the members of the condition's JSON object:
    /// a repeated name, which the compile reads once, is left to the checks.
    func hasOnlyPlainTests(count: Int) -> Bool {
        guard let members = compact.members, members.count == count else { return false }
        for index in members {
            guard parts[index].kind == .member, parts[index].compact.kind != .general,
                !ValueTest.isOperatorName(parts[index].name.text)
            else { return false }
        }
        return true
    }

    /// Whether a user's attributes satisfy the condition; `groups` serve `$inGroup`.
    package func holds(for attributes: AttributeTable, groups: [String: [JSONValue]]) -> Bool {
        compact.holds(for: attributes, in: self, groups: groups) ?? holds(in: attributes, groups: groups)
    }

    /// Whether a value (an element for `$elemMatch`, `{"value": …}` for a
    /// prerequisite) satisfies the condition as attributes.
    package func holds(for attributes: JSONValue, groups: [String: [JSONValue]]) -> Bool {
        holds(in: ScannedAttributes(root: attributes), groups: groups)
    }

    private func holds(in attributes: some AttributeLookup, groups: [String: [JSONValue]]) -> Bool {
        parts.withUnsafeBufferPointer { parts in
            Self.holds(0, parts, self, attributes, groups)
        }
    }

    /// Whether the part at `index` holds; its parts are evaluated in turn.
    private static func holds(
        _ index: Int,
        _ parts: UnsafeBufferPointer<Part>,
        _ condition: Condition,
        _ attributes: some AttributeLookup,
        _ groups: [String: [JSONValue]]
    ) -> Bool {
        // The part is read in place: a copy would count references to its
        // name and test. Those are read from the condition's own list, which
        // cannot change; read through the buffer, they were retained.
        let kind = parts[index].kind
        switch kind {
        case .member:
            let value =
                attributes.value(named: condition.parts[index].name.text, key: condition.parts[index].name.key)
                ?? .null
            return condition.parts[index].test.matches(value, groups)
        case .all, .any, .none:
            var child = index + 1
            let end = Int(parts[index].end)
            if child == end { return kind != .none }  // no parts: `$and` and `$or` hold, `$nor` fails
            while child < end {
                let holds = Self.holds(child, parts, condition, attributes, groups)
                switch kind {
                case .all where !holds: return false
                case .any where holds: return true
                case .none where holds: return false
                default: break
                }
                child = Int(parts[child].end)
            }
            return kind != .any
        case .not:
            return !Self.holds(index + 1, parts, condition, attributes, groups)
        case .path:
            let value = Self.value(at: condition.paths[Int(parts[index].operand)], in: attributes.root)
            return condition.parts[index].test.matches(value, groups)
        case .never:
            return false
        }
    }

    /// The attributes the condition reads, as written (`country`, `user.plan`),
    /// in the order they first appear: what a person may want to set to see it hold.
    package var attributeNames: [String] {
        var found: [String] = []
        for part in parts {
            let name: String
            switch part.kind {
            case .member, .path: name = part.name.text
            default: continue
            }
            if !found.contains(name) { found.append(name) }
        }
        return found
    }

    /// `a.b.c` in nested objects, as the SDK's `getPath` follows it: into an
    /// object's member, an array's element by index (`items.0`) or its
    /// `length`; any other step reads as `null`, as does a step from a falsy value.
    static func value(at path: [String], in attributes: JSONValue) -> JSONValue {
        var current = attributes
        for part in path {
            switch current {
            case .object(let members):
                guard let index = members.firstIndex(where: { JavaScriptSemantics.sameName($0.key, part) }) else {
                    return .null
                }
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

    /// The operators a condition object joins conditions with, by name:
    /// what the compile reads and what the payload linter checks.
    enum LogicalOperator {
        case or, nor, and, not

        /// The operator `name` names, `nil` for an attribute's name. Only a
        /// name that starts as the operators do is compared with them: two
        /// different strings take Swift's slow comparison, four times for
        /// every attribute of every condition.
        init?(_ name: String) {
            guard ValueTest.isOperatorName(name) else { return nil }
            switch name {
            case "$or": self = .or
            case "$nor": self = .nor
            case "$and": self = .and
            case "$not": self = .not
            default: return nil
            }
        }
    }

    /// Writes a condition's parts in preorder.
    private struct Builder {
        var parts = ContiguousArray<Part>()
        var paths: [[String]] = []

        /// A whole condition: one part when it names one attribute (the
        /// usual condition), all of its members' parts otherwise.
        mutating func condition(_ json: JSONValue) {
            guard let members = Self.entries(json) else {
                leaf(.never)
                return
            }
            if members.count == 1 {
                member(members[0])
                return
            }
            group(.all) { builder in for member in members { builder.member(member) } }
        }

        /// The part one member of a condition object sets.
        private mutating func member(_ member: JSONValue.Member) {
            switch LogicalOperator(member.key) {
            // `$or` holds over no parts (the SDK returns true for a length of 0 or none), `$nor` therefore fails.
            case .or?: list(.any, member.value)
            case .nor?: list(.none, member.value)
            case .and?: list(.all, member.value)
            case .not?:
                // `null` throws in the SDK: the condition never holds, `$not` included.
                if member.value == .null { return leaf(.never) }
                group(.not) { $0.condition(member.value) }
            case nil: attribute(member)
            }
        }

        /// The part of an attribute (or a dotted path) and its test.
        private mutating func attribute(_ member: JSONValue.Member) {
            let isPath = member.key.withUTF8Bytes { $0.contains(UInt8(ascii: ".")) }
            if isPath {
                paths.append(member.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
            }
            // Made in the append: a part made first and then appended was
            // copied into the list and destroyed (its name and test retained
            // and released), about 200 instructions an attribute.
            parts.append(
                Part(
                    kind: isPath ? .path : .member,
                    end: Int32(parts.count + 1),
                    operand: isPath ? Int32(paths.count - 1) : 0,
                    name: Name(text: member.key, key: NameHash.key(of: member.key)),
                    test: ValueTest(member.value)
                )
            )
        }

        /// `$or`, `$nor`, `$and`: a part over the conditions its operand
        /// lists, as the SDK indexes it up to its `length` (a list's
        /// elements, a string's characters; nothing for a value without a
        /// length); `null`, where JavaScript throws, never holds.
        private mutating func list(_ kind: Part.Kind, _ operand: JSONValue) {
            switch operand {
            case .array(let elements): group(kind) { builder in for element in elements { builder.condition(element) } }
            case .string(let text):
                group(kind) { builder in for unit in Self.units(of: text) { builder.condition(unit) } }
            case .object, .number, .bool: group(kind) { _ in }
            case .null: leaf(.never)
            }
        }

        private mutating func leaf(_ kind: Part.Kind) {
            parts.append(Part(kind: kind, end: Int32(parts.count + 1)))
        }

        /// A part whose parts `body` writes.
        private mutating func group(_ kind: Part.Kind, _ body: (inout Builder) -> Void) {
            let index = parts.count
            parts.append(Part(kind: kind, end: 0))
            body(&self)
            parts[index].end = Int32(parts.count)
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

        /// A string's UTF-16 code units, each as a string, as JavaScript indexes a string.
        private static func units(of text: String) -> [JSONValue] {
            text.utf16.map { .string(String(decoding: [$0], as: UTF16.self)) }
        }
    }
}

/// Where a condition finds a top-level attribute, and the object paths start from.
protocol AttributeLookup {
    var root: JSONValue { get }
    func value(named name: String, key: (hash: UInt32, isASCII: Bool)) -> JSONValue?
}

extension AttributeTable: AttributeLookup {}

/// Attributes looked up by a scan of the object: for a value a condition
/// meets once (an array's element, a prerequisite's `{"value": …}`), where
/// indexing it would cost more than the scan.
struct ScannedAttributes: AttributeLookup {
    let root: JSONValue

    func value(named name: String, key: (hash: UInt32, isASCII: Bool)) -> JSONValue? {
        guard case .object(let members) = root else { return nil }
        // By index: a `for member in` loop would copy (retain and release) every member it passes.
        for index in members.indices where JavaScriptSemantics.sameName(members[index].key, name) {
            return members[index].value
        }
        return nil
    }
}
