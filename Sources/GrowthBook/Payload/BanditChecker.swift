/// The checks of a payload's `contextualBandits`: each bandit an object whose
/// `contexts` are leaves with a condition and weights the evaluator can use,
/// and every rule's `contextualBanditRef` naming a bandit the payload has.
struct BanditChecker {
    /// A rule's `contextualBanditRef`: the name, its path in the features, and the rule, for messages.
    struct Reference {
        var name: String
        var path: [Int]
        var rule: String
    }

    /// The payload's `contextualBandits`, if any.
    let bandits: JSONValue?
    let references: [Reference]

    func check(into report: inout PayloadReport) {
        var known: Set<String> = []
        if let bandits {
            guard case .object(let members) = bandits else {
                report.error(
                    "\"contextualBandits\" must be an object, found \(bandits.kindName)",
                    in: .bandits,
                    at: []
                )
                return
            }
            for (index, member) in members.enumerated() {
                known.insert(member.key)
                check(member.value, what: "contextual bandit \"\(member.key)\"", at: index, into: &report)
            }
        }
        for reference in references where !known.contains(reference.name) {
            report.warning(
                "\(reference.rule) refers to contextual bandit \"\(reference.name)\", which the payload does not have; "
                    + "GrowthBook runs it on its own weights",
                at: reference.path
            )
        }
    }

    private func check(_ bandit: JSONValue, what: String, at index: Int, into report: inout PayloadReport) {
        guard case .object(let members) = bandit else {
            return report.error("\(what) must be an object, found \(bandit.kindName)", in: .bandits, at: [index])
        }
        func path(_ name: String) -> [Int] { [index] + (members.firstIndex { $0.key == name }.map { [$0] } ?? []) }
        if let version = bandit["banditVersion"], !RuleChecker.isNumber(version, in: -.infinity...(.infinity)) {
            report.error(
                "\"banditVersion\" of \(what) must be a number, found \(version.kindName)",
                in: .bandits,
                at: path("banditVersion")
            )
        }
        guard let contexts = bandit["contexts"] else { return }
        let contextsPath = path("contexts")
        guard case .array(let leaves) = contexts else {
            return report.error(
                "\"contexts\" of \(what) must be a list of leaves, found \(contexts.kindName)",
                in: .bandits,
                at: contextsPath
            )
        }
        for (leafIndex, leaf) in leaves.enumerated() {
            let leafWhat = "leaf \(leafIndex + 1) of \(what)"
            guard case .object(let leafMembers) = leaf else {
                report.error(
                    "\(leafWhat) must be an object, found \(leaf.kindName)",
                    in: .bandits,
                    at: contextsPath + [leafIndex]
                )
                continue
            }
            func leafPath(_ name: String) -> [Int] {
                contextsPath + [leafIndex] + (leafMembers.firstIndex { $0.key == name }.map { [$0] } ?? [])
            }
            if let condition = leaf["condition"], !RuleChecker.isObject(condition) {
                report.error(
                    "\"condition\" of \(leafWhat) must be an object, found \(condition.kindName)",
                    in: .bandits,
                    at: leafPath("condition")
                )
            }
            if let weights = leaf["weights"] {
                let valid: Bool
                if case .array(let items) = weights {
                    valid = items.allSatisfy { RuleChecker.isNumber($0, in: 0...1) }
                } else {
                    valid = false
                }
                if !valid {
                    report.error(
                        "\"weights\" of \(leafWhat) must be a list of numbers from 0 to 1",
                        in: .bandits,
                        at: leafPath("weights")
                    )
                }
            }
        }
    }
}
