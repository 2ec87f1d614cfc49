/// What a condition asks of one attribute's value, compiled: a plain value
/// to equal, or an object of operators (`$gt`, `$in`, `$regex`, …).
package enum ValueTest: Sendable {
    /// `String(actual) === text`.
    case string(String)
    /// `Number(actual) === number`.
    case number(Double)
    /// Not `null`, and truthy exactly when `flag`.
    case bool(Bool)
    /// `actual === null`.
    case null
    /// An array or plain object: equal when `JSON.stringify` prints the same
    /// text, members in the order JavaScript keeps them (``JavaScriptSemantics/stringifyAsParsed(_:)``).
    case json(String)
    /// An object of operators, all of which must hold.
    case operators([Operator])
    /// An object of one operator (`{"$gte": 18}`), the usual form: no list to walk.
    case single(Operator)

    /// One `$`-operator and its compiled operand. Only the cases that hold a
    /// test are boxed: a wholly `indirect` enum allocated a box for every
    /// operator compiled (two of a force rule's thirteen allocations).
    package enum Operator: Sendable {
        /// The operand's padded form, as UTF-16 code units (see ``Version``).
        case version(order: ComparisonOrder, padded: [UInt16])
        case equals(JSONValue)
        case notEquals(JSONValue)
        case less(JSONValue, orEqual: Bool)
        case greater(JSONValue, orEqual: Bool)
        /// `$lt`, `$lte`, `$gt`, `$gte` with a number: the usual form
        /// (`{"age": {"$gte": 18}}`), compared at once when the attribute is
        /// a number too, and as `less`/`greater` otherwise.
        case numberOrder(ComparisonOrder, Double)
        case exists(Bool)
        /// `$in`/`$ini` (`negated`: `$nin`/`$nini`); the list is lowercased when `insensitive`.
        case inList([JSONValue], insensitive: Bool, negated: Bool)
        /// `$in`/`$nin` of strings alone, the usual list (`["US", "CA"]`):
        /// compared as strings, with no value to unwrap per element.
        case inStrings([ListedString], negated: Bool)
        /// Never holds: an unknown operator, or one whose operand has the wrong
        /// type (`$in` or `$nin` without a list, `$regex` without a string).
        case never
        indirect case not(ValueTest)
        indirect case size(ValueTest)
        indirect case elementMatches(ValueTest)
        case elementSatisfies(Condition)
        /// `$all`/`$alli`: every test holds for some element (tests and elements lowercased when `insensitive`).
        case containsAll([ValueTest], insensitive: Bool)
        case regex(pattern: String, caseInsensitive: Bool)
        case type(String?)
        case inGroup(String, negated: Bool)
    }

    /// A string of an `$in` or `$nin` of strings, with its ``NameHash``
    /// key: a compact condition (``CompactCondition/pool``) compares an
    /// ASCII attribute's hash with it before the text.
    package struct ListedString: Sendable {
        var text: String
        var key: (hash: UInt32, isASCII: Bool)
    }

    /// How a comparison's order (of versions, or of numbers) must come out.
    package enum ComparisonOrder: Sendable {
        case equal, notEqual, greater, greaterOrEqual, less, lessOrEqual

        func holds(_ order: Int) -> Bool {
            switch self {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            }
        }
    }

    /// Whether a member's name makes its object one of operators, as the SDK
    /// tells them from attributes: its first code unit is `$` (`$` with a
    /// combining mark after it too, which is one `Character` in Swift).
    static func isOperatorName(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: "$")
    }

    /// The string a `.string` test is equal to; `nil` for any other test.
    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Compiles a condition value.
    package init(_ json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .array: self = .json(JavaScriptSemantics.stringifyAsParsed(json))
        case .object(let members):
            // An object is a list of operators only when every key is one.
            guard !members.isEmpty, members.allSatisfy({ Self.isOperatorName($0.key) }) else {
                self = .json(JavaScriptSemantics.stringifyAsParsed(json))
                return
            }
            if members.count == 1 {
                self = .single(Self.compile(members[0].key, members[0].value))
                return
            }
            // A repeated operator counts once, with its last operand, as after `JSON.parse`.
            let operators = JavaScriptSemantics.membersAsParsed(members).map { Self.compile($0.key, $0.value) }
            self = operators.count == 1 ? .single(operators[0]) : .operators(operators)
        }
    }

    /// An operator GrowthBook knows, by name: what ``compile(_:_:)`` reads,
    /// and what the payload linter checks (any other name never matches,
    /// which the linter reports).
    enum OperatorName {
        case veq, vne, vgt, vgte, vlt, vlte, eq, ne, lt, lte, gt, gte, exists, `in`, nin, ini, nini, not, size
        case elemMatch, all, alli, regex, regexi, type, inGroup, notInGroup

        /// The operator `name` names, `nil` for any other. By length first:
        /// a name is then compared only with the few of its length (two
        /// different strings take Swift's slow comparison, and `$in` came
        /// fourteenth; the linter's set of the names hashed each one, 9 % of checking a payload).
        init?(_ name: String) {
            switch (name.utf8.count, name) {
            case (4, "$veq"): self = .veq
            case (4, "$vne"): self = .vne
            case (4, "$vgt"): self = .vgt
            case (5, "$vgte"): self = .vgte
            case (4, "$vlt"): self = .vlt
            case (5, "$vlte"): self = .vlte
            case (3, "$eq"): self = .eq
            case (3, "$ne"): self = .ne
            case (3, "$lt"): self = .lt
            case (4, "$lte"): self = .lte
            case (3, "$gt"): self = .gt
            case (4, "$gte"): self = .gte
            case (7, "$exists"): self = .exists
            case (3, "$in"): self = .in
            case (4, "$nin"): self = .nin
            case (4, "$ini"): self = .ini
            case (5, "$nini"): self = .nini
            case (4, "$not"): self = .not
            case (5, "$size"): self = .size
            case (10, "$elemMatch"): self = .elemMatch
            case (4, "$all"): self = .all
            case (5, "$alli"): self = .alli
            case (6, "$regex"): self = .regex
            case (7, "$regexi"): self = .regexi
            case (5, "$type"): self = .type
            case (8, "$inGroup"): self = .inGroup
            case (11, "$notInGroup"): self = .notInGroup
            default: return nil
            }
        }
    }

    private static func compile(_ name: String, _ operand: JSONValue) -> Operator {
        // An unknown operator never matches.
        guard let known = OperatorName(name) else { return .never }
        switch known {
        case .veq: return .version(order: .equal, padded: Version.paddedUnits(operand))
        case .vne: return .version(order: .notEqual, padded: Version.paddedUnits(operand))
        case .vgt: return .version(order: .greater, padded: Version.paddedUnits(operand))
        case .vgte: return .version(order: .greaterOrEqual, padded: Version.paddedUnits(operand))
        case .vlt: return .version(order: .less, padded: Version.paddedUnits(operand))
        case .vlte: return .version(order: .lessOrEqual, padded: Version.paddedUnits(operand))
        case .eq: return .equals(operand)
        case .ne: return .notEquals(operand)
        case .lt: return numberOrder(.less, operand) ?? .less(operand, orEqual: false)
        case .lte: return numberOrder(.lessOrEqual, operand) ?? .less(operand, orEqual: true)
        case .gt: return numberOrder(.greater, operand) ?? .greater(operand, orEqual: false)
        case .gte: return numberOrder(.greaterOrEqual, operand) ?? .greater(operand, orEqual: true)
        case .exists: return .exists(JavaScriptSemantics.truthy(operand))
        case .in: return inList(operand, insensitive: false, negated: false)
        case .nin: return inList(operand, insensitive: false, negated: true)
        case .ini: return inList(operand, insensitive: true, negated: false)
        case .nini: return inList(operand, insensitive: true, negated: true)
        case .not: return .not(ValueTest(operand))
        case .size: return .size(ValueTest(operand))
        case .elemMatch:
            switch ValueTest(operand) {
            case .operators, .single: return .elementMatches(ValueTest(operand))
            default: break
            }
            return .elementSatisfies(Condition(operand))
        case .all, .alli:
            guard let wanted = operand.elements else { return .never }
            let insensitive = known == .alli
            return .containsAll(wanted.map { ValueTest(insensitive ? folded($0) : $0) }, insensitive: insensitive)
        case .regex, .regexi:
            guard let pattern = operand.stringValue else { return .never }
            return .regex(pattern: pattern, caseInsensitive: known == .regexi)
        case .type: return .type(operand.stringValue)
        case .inGroup: return .inGroup(operand.stringValue ?? "", negated: false)
        case .notInGroup: return .inGroup(operand.stringValue ?? "", negated: true)
        }
    }

    /// An order against a number operand, `nil` for any other operand.
    private static func numberOrder(_ order: ComparisonOrder, _ operand: JSONValue) -> Operator? {
        guard case .number(let number) = operand else { return nil }
        return .numberOrder(order, number)
    }

    private static func inList(_ operand: JSONValue, insensitive: Bool, negated: Bool) -> Operator {
        guard let list = operand.elements else { return .never }
        if !insensitive, list.allSatisfy({ $0.stringValue != nil }) {
            // Reserved at once: `compactMap` grew the list as it went, a second allocation for two strings.
            var strings: [ListedString] = []
            strings.reserveCapacity(list.count)
            for element in list {
                let text = element.stringValue ?? ""
                strings.append(ListedString(text: text, key: NameHash.key(of: text)))
            }
            return .inStrings(strings, negated: negated)
        }
        return .inList(insensitive ? list.map(folded) : list, insensitive: insensitive, negated: negated)
    }

    /// Whether an attribute value matches.
    func matches(_ actual: JSONValue, _ groups: [String: [JSONValue]]) -> Bool {
        switch self {
        case .string(let text):
            if case .string(let value) = actual { return value == text }
            return JavaScriptSemantics.string(actual) == text
        case .number(let number): return JavaScriptSemantics.number(actual) == number
        case .bool(let flag): return actual != .null && JavaScriptSemantics.truthy(actual) == flag
        case .null: return actual == .null
        case .json(let text): return JavaScriptSemantics.stringifyAsParsed(actual) == text
        case .operators(let operators): return operators.allSatisfy { $0.holds(for: actual, groups) }
        case .single(let only): return only.holds(for: actual, groups)
        }
    }

    /// Strings lowercased, for the case-insensitive operators.
    static func folded(_ value: JSONValue) -> JSONValue {
        if case .string(let text) = value { return .string(text.lowercased()) }
        return value
    }
}

extension ValueTest.Operator {
    func holds(for actual: JSONValue, _ groups: [String: [JSONValue]]) -> Bool {
        switch self {
        case .version(let order, let padded): return order.holds(Version.order(of: actual, comparedTo: padded))
        case .equals(let expected): return JavaScriptSemantics.strictEquals(actual, expected)
        case .notEquals(let expected): return !JavaScriptSemantics.strictEquals(actual, expected)
        case .less(let expected, let orEqual):
            return JavaScriptSemantics.compare(actual, expected) { orEqual ? $0 <= 0 : $0 < 0 }
        case .greater(let expected, let orEqual):
            return JavaScriptSemantics.compare(actual, expected) { orEqual ? $0 >= 0 : $0 > 0 }
        case .numberOrder(let order, let expected):
            // Two numbers compare as numbers (NaN never holds); anything else as JavaScript coerces it.
            guard case .number(let number) = actual else {
                return JavaScriptSemantics.compare(actual, .number(expected)) { order.holds($0) }
            }
            if number.isNaN || expected.isNaN { return false }
            return order.holds(number < expected ? -1 : (number == expected ? 0 : 1))
        case .exists(let wanted): return (actual != .null) == wanted
        case .inList(let list, let insensitive, let negated): return Self.isIn(actual, list, insensitive) != negated
        case .inStrings(let strings, let negated):
            // As `isIn` reads a list of strings: a string equal to one, or an array holding such a string.
            let found: Bool
            switch actual {
            case .string(let text): found = strings.contains { $0.text == text }
            case .array(let elements):
                found = elements.contains { element in
                    if case .string(let text) = element { return strings.contains { $0.text == text } }
                    return false
                }
            default: found = false
            }
            return found != negated
        case .never: return false
        case .not(let test): return !test.matches(actual, groups)
        case .size(let test):
            guard case .array(let elements) = actual else { return false }
            return test.matches(.number(Double(elements.count)), groups)
        // Falsy elements (0, "", false, null) are skipped, as the SDK's `actual[i] && check(actual[i])`.
        case .elementMatches(let test):
            guard case .array(let elements) = actual else { return false }
            return elements.contains { JavaScriptSemantics.truthy($0) && test.matches($0, groups) }
        case .elementSatisfies(let condition):
            guard case .array(let elements) = actual else { return false }
            return elements.contains { JavaScriptSemantics.truthy($0) && condition.holds(for: $0, groups: groups) }
        case .containsAll(let tests, let insensitive):
            guard case .array(let elements) = actual else { return false }
            return tests.allSatisfy { test in
                elements.contains { test.matches(insensitive ? ValueTest.folded($0) : $0, groups) }
            }
        case .regex(let pattern, let caseInsensitive):
            return BoundedRegex.matches(
                pattern,
                caseInsensitive: caseInsensitive,
                in: JavaScriptSemantics.string(actual)
            )
        case .type(let name): return JavaScriptSemantics.typeName(actual) == name
        case .inGroup(let name, let negated): return Self.isIn(actual, groups[name] ?? [], false) != negated
        }
    }

    /// `list.includes(actual)`, or for an array any of its elements.
    private static func isIn(_ actual: JSONValue, _ list: [JSONValue], _ insensitive: Bool) -> Bool {
        func included(_ element: JSONValue) -> Bool {
            let candidate = insensitive ? ValueTest.folded(element) : element
            return list.contains { JavaScriptSemantics.strictEquals(candidate, $0) }
        }
        if case .array(let elements) = actual { return elements.contains { included($0) } }
        return included(actual)
    }
}
