import GrowthBook

/// A GrowthBook payload's rules as Laboratory experiments: each experiment
/// rule (merged by key across features), and each force or rollout rule as an
/// experiment of two variants, so the console lists them all and QA can force
/// any of them.
struct GrowthBookExperiments: Sendable {
    /// The payload the experiments come from.
    let payload: GrowthBookPayload
    /// Every experiment rule as a Laboratory experiment, named after the rule's key.
    let experimentRules: [Experiment]
    /// Force and rollout rules as experiments, with their feature and rule position.
    let ruleExperiments: [(feature: String, index: Int, experiment: Experiment)]
    /// Rule experiment names by `feature#rule`.
    private let ruleExperimentIndex: [String: String]

    init(_ payload: GrowthBookPayload) {
        self.payload = payload
        experimentRules = Self.experimentRules(of: payload.features)
        ruleExperiments = Self.forceAndRolloutRules(of: payload.features)
        ruleExperimentIndex = Dictionary(
            ruleExperiments.map { ("\($0.feature)#\($0.index)", $0.experiment.name) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The attributes each rule's condition and hashing read, with the
    /// experiments (rules) that read them, each listed once.
    var targetingAttributes: [String: [String]] {
        var result: [String: [String]] = [:]
        for member in payload.features {
            for (index, rule) in (member.value["rules"]?.elements ?? []).enumerated() {
                let experiment =
                    ruleExperimentName(feature: member.key, rule: index) ?? rule["key"]?.stringValue ?? member.key
                var names = rule["condition"].map { Condition($0).attributeNames } ?? []
                // Experiments and rollouts hash a user attribute, `id` unless the rule names another.
                if rule["variations"] != nil || rule["coverage"] != nil || rule["range"] != nil {
                    names.append(rule["hashAttribute"]?.stringValue ?? "id")
                }
                if let fallback = rule["fallbackAttribute"]?.stringValue { names.append(fallback) }
                for name in names where result[name]?.contains(experiment) != true {
                    result[name, default: []].append(experiment)
                }
            }
        }
        return result
    }

    /// Experiment rules, then force and rollout rules.
    var all: [Experiment] { experimentRules + ruleExperiments.map(\.experiment) }

    /// The experiment standing for a force or rollout rule, by feature and rule position.
    func ruleExperimentName(feature: String, rule index: Int) -> String? {
        ruleExperimentIndex["\(feature)#\(index)"]
    }

    /// The variant of a force or rollout rule's experiment that stands for the feature's default value.
    static let defaultVariant = "Default"
    /// The variant of a force or rollout rule's experiment that stands for the rule's value.
    static let ruleVariant = "Forced"

    /// Force and rollout rules as experiments of two variants, `Forced` (the
    /// rule's value) and `Default` (the feature's default, the baseline), so the
    /// console lists them as such and QA can force either; their weights are
    /// the share of users the rule gives its value (all for a force rule).
    private static func forceAndRolloutRules(
        of features: [JSONValue.Member]
    ) -> [(feature: String, index: Int, experiment: Experiment)] {
        var result: [(String, Int, Experiment)] = []
        for member in features {
            var counts: [String: Int] = [:]
            for (index, rule) in (member.value["rules"]?.elements ?? []).enumerated() {
                guard let force = rule["force"] else { continue }
                let kind = rule["coverage"] != nil || rule["range"] != nil ? "rollout" : "force"
                counts[kind, default: 0] += 1
                let name = "\(member.key): \(kind)" + (counts[kind]! > 1 ? " \(counts[kind]!)" : "")
                let defaultValue = member.value["defaultValue"] ?? .null
                // The shares say what the rule does: everyone (a force), or a rollout's part of the users.
                var share = min(max(rule["coverage"]?.numberValue ?? 1, 0), 1)
                if let range = rule["range"]?.elements?.compactMap(\.numberValue), range.count == 2 {
                    share = min(max(range[1] - range[0], 0), 1)
                }
                let experiment = Experiment(
                    name: name,
                    keys: [member.key],
                    variants: [
                        Variant(
                            name: defaultVariant,
                            weight: 1 - share,
                            assignments: [member.key: AssignmentValue(defaultValue)]
                        ),
                        Variant(
                            name: ruleVariant,
                            weight: share,
                            assignments: [member.key: AssignmentValue(force)]
                        ),
                    ],
                    baseline: defaultVariant,
                    bucketing: .hash
                )
                result.append((member.key, index, experiment))
            }
        }
        return result
    }

    /// Every experiment rule as a Laboratory experiment: name = the rule's
    /// key, variants named by `meta[].name`, `meta[].key` or index, each
    /// assigning every feature that runs the experiment its variation's value,
    /// baseline = variation 0. Rules of one key in several features merge.
    private static func experimentRules(of features: [JSONValue.Member]) -> [Experiment] {
        var order: [String] = []
        var rulesByKey: [String: [(feature: String, rule: JSONValue)]] = [:]
        for member in features {
            for rule in member.value["rules"]?.elements ?? [] where Self.variations(of: rule) != nil {
                let key = rule["key"]?.stringValue ?? member.key
                if rulesByKey[key] == nil { order.append(key) }
                rulesByKey[key, default: []].append((member.key, rule))
            }
        }
        return order.compactMap { key -> Experiment? in
            let rules = rulesByKey[key]!
            // Each rule's variations and the weights looked up once, not once per variant.
            let variations = rules.map { (feature: $0.feature, values: Self.variations(of: $0.rule)!) }
            let count = variations.map(\.values.count).min() ?? 0
            guard count > 0 else { return nil }
            let meta = rules[0].rule["meta"]?.elements ?? []
            let weights = rules[0].rule["weights"]?.elements?.compactMap(\.numberValue)
            let variants = (0..<count).map { index -> Variant in
                let info = index < meta.count ? meta[index] : nil
                let name =
                    info?["name"]?.stringValue ?? info?["key"].map { JavaScriptSemantics.string($0) } ?? String(index)
                var assignments: [String: AssignmentValue] = [:]
                for (feature, values) in variations {
                    assignments[feature] = AssignmentValue(values[index])
                }
                return Variant(
                    name: name,
                    weight: weights.map { index < $0.count ? max($0[index], 0.000001) : 1 } ?? 1,
                    assignments: assignments
                )
            }
            let named = Self.uniqueNames(variants)
            return Experiment(
                name: key,
                keys: rules.map(\.feature),
                variants: named,
                baseline: named[0].name,
                bucketing: .hash,
                title: rules.lazy.compactMap { $0.rule["name"]?.stringValue }.first { !$0.isEmpty }
            )
        }
    }

    /// Variation names must be unique within an experiment; a repeat gets
    /// `#` and the first number free after those its name already took, so
    /// thousands of repeats of one name cost one look each.
    static func uniqueNames(_ variants: [Variant]) -> [Variant] {
        var seen: Set<String> = []
        seen.reserveCapacity(variants.count)
        var nextSuffix: [String: Int] = [:]
        return variants.enumerated().map { index, variant in
            var variant = variant
            let base = variant.name
            if !seen.insert(base).inserted {
                var suffix = nextSuffix[base] ?? index
                while !seen.insert(base + "#\(suffix)").inserted { suffix += 1 }
                variant.name = base + "#\(suffix)"
                nextSuffix[base] = suffix + 1
            }
            return variant
        }
    }

    /// An experiment rule's variations; a contextual bandit's rule keeps them
    /// under `contextualVariations` (so SDKs without bandits skip it).
    static func variations(of rule: JSONValue) -> [JSONValue]? {
        (rule["contextualVariations"] ?? rule["variations"])?.elements
    }
}
