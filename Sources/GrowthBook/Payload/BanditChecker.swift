/// The checks of a payload's `contextualBandits`: each bandit an object whose
/// `contexts` are leaves with a condition and weights the evaluator can use,
/// and every rule's `contextualBanditRef` naming a bandit the payload has.
struct BanditChecker {
    /// The payload's `contextualBandits`, if any.
    let bandits: JSONNode?
    /// The references rules make, with where they are and which rule makes them.
    let references: [(name: String, position: SourcePosition, rule: String)]

    func check(into report: inout Report) {
        var known: Set<String> = []
        if let bandits {
            guard case .object(let members) = bandits.kind else {
                report.error("\"contextualBandits\" must be an object, found \(bandits.kindName)", at: bandits.position)
                return
            }
            for member in members {
                known.insert(member.name)
                check(member.value, what: "contextual bandit \"\(member.name)\"", into: &report)
            }
        }
        for reference in references where !known.contains(reference.name) {
            report.warning(
                "\(reference.rule) refers to contextual bandit \"\(reference.name)\", which the payload does not have; "
                    + "GrowthBook runs it on its own weights",
                at: reference.position
            )
        }
    }

    private func check(_ bandit: JSONNode, what: String, into report: inout Report) {
        guard case .object = bandit.kind else {
            return report.error("\(what) must be an object, found \(bandit.kindName)", at: bandit.position)
        }
        if let version = bandit[member: "banditVersion"], !RuleChecker.isNumber(version, in: -.infinity...(.infinity)) {
            report.error(
                "\"banditVersion\" of \(what) must be a number, found \(version.kindName)",
                at: version.position
            )
        }
        guard let contexts = bandit[member: "contexts"] else { return }
        guard case .array(let leaves) = contexts.kind else {
            return report.error(
                "\"contexts\" of \(what) must be a list of leaves, found \(contexts.kindName)",
                at: contexts.position
            )
        }
        for (index, leaf) in leaves.enumerated() {
            let leafWhat = "leaf \(index + 1) of \(what)"
            guard case .object = leaf.kind else {
                report.error("\(leafWhat) must be an object, found \(leaf.kindName)", at: leaf.position)
                continue
            }
            if let condition = leaf[member: "condition"], !RuleChecker.isObject(condition) {
                report.error(
                    "\"condition\" of \(leafWhat) must be an object, found \(condition.kindName)",
                    at: condition.position
                )
            }
            if let weights = leaf[member: "weights"] {
                let valid: Bool
                if case .array(let items) = weights.kind {
                    valid = items.allSatisfy { RuleChecker.isNumber($0, in: 0...1) }
                } else {
                    valid = false
                }
                if !valid {
                    report.error(
                        "\"weights\" of \(leafWhat) must be a list of numbers from 0 to 1",
                        at: weights.position
                    )
                }
            }
        }
    }
}
