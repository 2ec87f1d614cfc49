/// The checks of a targeting condition: every operator is one GrowthBook
/// knows and every pattern compiles. The SDKs evaluate such a rule (it just
/// never matches), so these are errors for the payload linter only: a typo such as
/// `$regexx` would otherwise hide a rule that targets nobody.
///
/// A clean condition costs no allocation: it is walked without its
/// ``Trail``, and only a condition with a problem is walked again to say
/// where. The path to a member and the rule's name in messages are made only
/// for a problem (every rule of every payload is checked before it may load,
/// and a path per member was most of the checks' allocations; the trail, one
/// a condition, was then the last).
struct ConditionChecker {
    /// The rule the condition belongs to: its path and its name, for messages.
    let rule: RuleChecker
    /// The position of the `condition` member in the rule.
    let member: Int

    func check(_ condition: JSONValue, into report: inout PayloadReport) {
        var untraced = Trail(traced: false)
        var problems = PayloadReport()
        checkCondition(condition, at: &untraced, into: &problems)
        guard !problems.findings.isEmpty else { return }
        var trail = Trail(traced: true)
        checkCondition(condition, at: &trail, into: &report)
    }

    /// The positions from the `condition` member down to where a check is,
    /// kept as a stack while the checks walk the condition (when `traced`).
    private struct Trail {
        let traced: Bool
        var steps: [Int] = []

        init(traced: Bool) {
            self.traced = traced
            // Room for the usual depth: one allocation.
            if traced { steps.reserveCapacity(8) }
        }

        /// Runs `body` one step further down, at `index`.
        mutating func step<T>(_ index: Int, _ body: (inout Trail) -> T) -> T {
            guard traced else { return body(&self) }
            steps.append(index)
            defer { steps.removeLast() }
            return body(&self)
        }
    }

    /// The full path to where `trail` is, for a finding.
    private func path(_ trail: Trail) -> [Int] {
        rule.path(member) + trail.steps
    }

    /// A condition object: `$or`, `$nor`, `$and`, `$not`, or attribute paths and their tests.
    private func checkCondition(_ condition: JSONValue, at trail: inout Trail, into report: inout PayloadReport) {
        guard case .object(let members) = condition else { return }
        for index in members.indices {
            trail.step(index) { trail in
                let member = members[index]
                switch Condition.LogicalOperator(member.key) {
                case .or?, .nor?, .and?:
                    guard case .array(let parts) = member.value else {
                        report.neverMatches(
                            "\"\(member.key)\" in the condition of \(rule.what) must be a list",
                            at: path(trail)
                        )
                        return
                    }
                    for part in parts.indices {
                        trail.step(part) { checkCondition(parts[part], at: &$0, into: &report) }
                    }
                case .not?:
                    checkCondition(member.value, at: &trail, into: &report)
                case nil where ValueTest.isOperatorName(member.key):
                    report.neverMatches(
                        "unknown operator \"\(member.key)\" in the condition of \(rule.what): the rule never matches",
                        at: path(trail)
                    )
                case nil:
                    checkTest(member.value, at: &trail, into: &report)
                }
            }
        }
    }

    /// A value test: an operator object (every name starts with `$`), or a value to equal.
    private func checkTest(_ test: JSONValue, at trail: inout Trail, into report: inout PayloadReport) {
        guard case .object(let members) = test, !members.isEmpty,
            members.allSatisfy({ ValueTest.isOperatorName($0.key) })
        else { return }
        for index in members.indices {
            trail.step(index) { trail in checkOperator(members[index], at: &trail, into: &report) }
        }
    }

    /// One operator of a value test, and its operand.
    private func checkOperator(_ member: JSONValue.Member, at trail: inout Trail, into report: inout PayloadReport) {
        // By the names the compile reads (``ValueTest/OperatorName``).
        switch ValueTest.OperatorName(member.key) {
        case let name? where name == .regex || name == .regexi:
            guard case .string(let pattern) = member.value else { return }
            let caseInsensitive = name == .regexi
            // Compiled once here, and found compiled by the evaluations that match with it.
            if let problem = BoundedRegex.syntaxError(in: pattern, caseInsensitive: caseInsensitive) {
                report.neverMatches(
                    "invalid pattern \"\(pattern)\" for \"\(member.key)\" in the condition of \(rule.what) "
                        + "(\(problem), as JavaScript reads it): it never matches",
                    at: path(trail)
                )
            }
        case .not?, .size?:
            checkTest(member.value, at: &trail, into: &report)
        case .elemMatch?:
            // An operator object tests each element; anything else is a condition on it.
            if case .object(let inner) = member.value, !inner.isEmpty,
                inner.allSatisfy({ ValueTest.isOperatorName($0.key) })
            {
                checkTest(member.value, at: &trail, into: &report)
            } else {
                checkCondition(member.value, at: &trail, into: &report)
            }
        case nil:
            report.neverMatches(
                "unknown operator \"\(member.key)\" in the condition of \(rule.what): the rule never matches",
                at: path(trail)
            )
        default:
            break
        }
    }
}
