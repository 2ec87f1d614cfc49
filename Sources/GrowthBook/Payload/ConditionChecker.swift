/// The checks of a targeting condition: every operator is one GrowthBook
/// knows and every pattern compiles. The SDKs evaluate such a rule (it just
/// never matches), so these are errors for the payload linter only: a typo such as
/// `$regexx` would otherwise hide a rule that targets nobody.
struct ConditionChecker {
    /// Where the condition is, and "rule 2 of feature \"cta\"", for messages.
    let path: [Int]
    let what: String

    func check(_ condition: JSONValue, into report: inout PayloadReport) {
        checkCondition(condition, at: path, into: &report)
    }

    /// A condition object: `$or`, `$nor`, `$and`, `$not`, or attribute paths and their tests.
    private func checkCondition(_ condition: JSONValue, at path: [Int], into report: inout PayloadReport) {
        guard case .object(let members) = condition else { return }
        for (index, member) in members.enumerated() {
            let place = path + [index]
            switch member.key {
            case "$or", "$nor", "$and":
                guard case .array(let parts) = member.value else {
                    report.neverMatches("\"\(member.key)\" in the condition of \(what) must be a list", at: place)
                    continue
                }
                for (part, condition) in parts.enumerated() {
                    checkCondition(condition, at: place + [part], into: &report)
                }
            case "$not":
                checkCondition(member.value, at: place, into: &report)
            case let name where name.hasPrefix("$"):
                report.neverMatches(
                    "unknown operator \"\(name)\" in the condition of \(what): the rule never matches",
                    at: place
                )
            default:
                checkTest(member.value, at: place, into: &report)
            }
        }
    }

    /// A value test: an operator object (every name starts with `$`), or a value to equal.
    private func checkTest(_ test: JSONValue, at path: [Int], into report: inout PayloadReport) {
        guard case .object(let members) = test, !members.isEmpty, members.allSatisfy({ $0.key.hasPrefix("$") })
        else { return }
        for (index, member) in members.enumerated() {
            let place = path + [index]
            switch member.key {
            case "$regex", "$regexi":
                guard case .string(let pattern) = member.value else { continue }
                let caseInsensitive = member.key == "$regexi"
                // Compiled once here, and found compiled by the evaluations that match with it.
                if let problem = BoundedRegex.syntaxError(in: pattern, caseInsensitive: caseInsensitive) {
                    report.neverMatches(
                        "invalid pattern \"\(pattern)\" for \"\(member.key)\" in the condition of \(what) "
                            + "(\(problem), as JavaScript reads it): it never matches",
                        at: place
                    )
                }
            case "$not", "$size":
                checkTest(member.value, at: place, into: &report)
            case "$elemMatch":
                // An operator object tests each element; anything else is a condition on it.
                if case .object(let inner) = member.value, !inner.isEmpty, inner.allSatisfy({ $0.key.hasPrefix("$") }) {
                    checkTest(member.value, at: place, into: &report)
                } else {
                    checkCondition(member.value, at: place, into: &report)
                }
            case let name where !ValueTest.operatorNames.contains(name):
                report.neverMatches(
                    "unknown operator \"\(name)\" in the condition of \(what): the rule never matches",
                    at: place
                )
            default:
                break
            }
        }
    }
}
