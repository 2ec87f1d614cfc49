import Foundation

/// GrowthBook's targeting conditions: MongoDB-style rules over attributes,
/// evaluated exactly as GrowthBook's JavaScript SDK does (its conformance cases
/// pin the details, JavaScript coercions included).
public enum ConditionEvaluator {
    /// Whether `attributes` satisfy `condition`; `savedGroups` serve `$inGroup`.
    public static func evaluate(
        _ condition: JSONValue,
        attributes: JSONValue,
        savedGroups: [String: [JSONValue]] = [:]
    ) -> Bool {
        guard let members = condition.members else { return false }
        for member in members {
            switch member.key {
            case "$or":
                if !any(member.value, attributes, savedGroups) { return false }
            case "$nor":
                if any(member.value, attributes, savedGroups) { return false }
            case "$and":
                if !all(member.value, attributes, savedGroups) { return false }
            case "$not":
                if evaluate(member.value, attributes: attributes, savedGroups: savedGroups) { return false }
            default:
                if !value(member.value, matches: path(member.key, in: attributes), savedGroups) { return false }
            }
        }
        return true
    }

    private static func any(_ conditions: JSONValue, _ attributes: JSONValue, _ groups: [String: [JSONValue]]) -> Bool {
        guard let list = conditions.elements else { return false }
        return list.isEmpty || list.contains { evaluate($0, attributes: attributes, savedGroups: groups) }
    }

    private static func all(_ conditions: JSONValue, _ attributes: JSONValue, _ groups: [String: [JSONValue]]) -> Bool {
        guard let list = conditions.elements else { return false }
        return list.allSatisfy { evaluate($0, attributes: attributes, savedGroups: groups) }
    }

    /// `a.b.c` in nested objects; a missing step reads as `null`, as in GrowthBook.
    static func path(_ path: String, in value: JSONValue) -> JSONValue? {
        var current: JSONValue = value
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object = current, let next = current[String(part)] else { return .null }
            current = next
        }
        return current
    }

    private static func isOperatorObject(_ value: JSONValue) -> Bool {
        guard let members = value.members, !members.isEmpty else { return false }
        return members.allSatisfy { $0.key.hasPrefix("$") }
    }

    /// Whether an attribute value matches a condition value.
    static func value(_ condition: JSONValue, matches actual: JSONValue?, _ groups: [String: [JSONValue]]) -> Bool {
        switch condition {
        case .string(let text): return JavaScriptSemantics.string(actual) == text
        case .number(let number): return JavaScriptSemantics.number(actual) == number
        case .bool(let flag): return actual != .null && JavaScriptSemantics.truthy(actual) == flag
        case .null: return actual == .null
        case .array: return JavaScriptSemantics.stringify(actual) == JavaScriptSemantics.stringify(condition)
        case .object(let members):
            guard isOperatorObject(condition) else {
                return JavaScriptSemantics.stringify(actual) == JavaScriptSemantics.stringify(condition)
            }
            return members.allSatisfy { operation($0.key, actual: actual, expected: $0.value, groups) }
        }
    }

    private static func operation(
        _ name: String,
        actual: JSONValue?,
        expected: JSONValue,
        _ groups: [String: [JSONValue]]
    ) -> Bool {
        switch name {
        case "$veq": return Version.compare(actual, expected) { $0 == 0 }
        case "$vne": return Version.compare(actual, expected) { $0 != 0 }
        case "$vgt": return Version.compare(actual, expected) { $0 > 0 }
        case "$vgte": return Version.compare(actual, expected) { $0 >= 0 }
        case "$vlt": return Version.compare(actual, expected) { $0 < 0 }
        case "$vlte": return Version.compare(actual, expected) { $0 <= 0 }
        case "$eq": return JavaScriptSemantics.strictEquals(actual, expected)
        case "$ne": return !JavaScriptSemantics.strictEquals(actual, expected)
        case "$lt": return JavaScriptSemantics.compare(actual, expected) { $0 < 0 }
        case "$lte": return JavaScriptSemantics.compare(actual, expected) { $0 <= 0 }
        case "$gt": return JavaScriptSemantics.compare(actual, expected) { $0 > 0 }
        case "$gte": return JavaScriptSemantics.compare(actual, expected) { $0 >= 0 }
        case "$exists":
            let present = actual != nil && actual != .null
            return JavaScriptSemantics.truthy(expected) ? present : !present
        case "$in", "$ini":
            guard let list = expected.elements else { return false }
            return isIn(actual, list, insensitive: name == "$ini")
        case "$nin", "$nini":
            guard let list = expected.elements else { return false }
            return !isIn(actual, list, insensitive: name == "$nini")
        case "$not": return !value(expected, matches: actual, groups)
        case "$size":
            guard let elements = actual?.elements else { return false }
            return value(expected, matches: .number(Double(elements.count)), groups)
        case "$elemMatch":
            guard let elements = actual?.elements else { return false }
            let operatorObject = isOperatorObject(expected)
            return elements.contains { element in
                operatorObject
                    ? value(expected, matches: element, groups)
                    : evaluate(expected, attributes: element, savedGroups: groups)
            }
        case "$all", "$alli":
            guard let elements = actual?.elements, let wanted = expected.elements else { return false }
            let insensitive = name == "$alli"
            return wanted.allSatisfy { condition in
                elements.contains { element in
                    insensitive
                        ? value(folded(condition), matches: folded(element), groups)
                        : value(condition, matches: element, groups)
                }
            }
        case "$regex", "$regexi":
            guard let pattern = expected.stringValue else { return false }
            return BoundedRegex.matches(
                pattern,
                caseInsensitive: name == "$regexi",
                in: JavaScriptSemantics.string(actual)
            )
        case "$type": return JavaScriptSemantics.typeName(actual) == expected.stringValue
        case "$inGroup": return isIn(actual, groups[expected.stringValue ?? ""] ?? [], insensitive: false)
        case "$notInGroup": return !isIn(actual, groups[expected.stringValue ?? ""] ?? [], insensitive: false)
        default: return false  // An unknown operator never matches.
        }
    }

    /// Strings lowercased, for the case-insensitive operators.
    private static func folded(_ value: JSONValue) -> JSONValue {
        if case .string(let text) = value { return .string(text.lowercased()) }
        return value
    }

    /// `expected.includes(actual)`, or for an array any of its elements.
    private static func isIn(_ actual: JSONValue?, _ expected: [JSONValue], insensitive: Bool) -> Bool {
        let list = insensitive ? expected.map(folded) : expected
        func included(_ element: JSONValue?) -> Bool {
            let candidate = insensitive ? element.map(folded) : element
            return list.contains { JavaScriptSemantics.strictEquals(candidate, $0) }
        }
        if let elements = actual?.elements { return elements.contains { included($0) } }
        return included(actual)
    }
}

/// GrowthBook's version comparison: `1.2.3-beta` style strings padded so
/// that plain string order is version order.
enum Version {
    static func compare(_ actual: JSONValue?, _ expected: JSONValue, _ holds: (Int) -> Bool) -> Bool {
        let a = padded(actual)
        let b = padded(expected)
        let order = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : (a == b ? 0 : 1)
        return holds(order)
    }

    static func padded(_ value: JSONValue?) -> String {
        let input: String
        switch value {
        case .number(let number)?: input = JavaScriptSemantics.numberString(number)
        case .string(let text)? where !text.isEmpty: input = text
        default: return "0"
        }
        var text = input
        if text.hasPrefix("v") { text.removeFirst() }
        if let plus = text.firstIndex(of: "+") { text = String(text[..<plus]) }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "." }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            part.allSatisfy(\.isASCIIDigit) && !part.isEmpty
                ? String(repeating: " ", count: max(0, 5 - part.count)) + part : part
        }.joined(separator: "-")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
