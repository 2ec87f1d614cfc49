import GrowthBook

/// A GrowthBook payload's rules as Laboratory experiments: each experiment
/// rule (merged by key across features), and each force or rollout rule as an
/// experiment of two variants, so the console lists them all and QA can force
/// any of them.
struct GrowthBookExperiments: Sendable {
    /// The payload the experiments come from.
    let payload: GrowthBookPayload
    /// The payload's features as the evaluator decoded them, each key once (the
    /// first of a repeated key, as the evaluator reads it), in payload order.
    let features: [(key: String, feature: GrowthBookFeature)]
    /// Every experiment rule as a Laboratory experiment, named after the rule's key.
    let experimentRules: [Experiment]
    /// Force and rollout rules as experiments, with where each rule is.
    let ruleExperiments: [(position: RulePosition, experiment: Experiment)]
    /// The experiment every force, rollout, experiment and bandit rule stands for.
    private let experimentsByPosition: [RulePosition: Experiment]
    /// The features whose rules run each experiment, in payload order.
    let featuresByExperiment: [String: [String]]

    init(_ payload: GrowthBookPayload) {
        self.payload = payload
        var seen: Set<String> = []
        features = payload.features.compactMap { member in
            guard seen.insert(member.key).inserted, let feature = payload.decodedFeatures[member.key] else {
                return nil
            }
            return (member.key, feature)
        }
        experimentRules = Self.experimentRules(of: features)
        ruleExperiments = Self.forceAndRolloutRules(of: features)
        let experimentsByName = Dictionary(
            experimentRules.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var byPosition = Dictionary(ruleExperiments, uniquingKeysWith: { first, _ in first })
        var featuresOf: [String: [String]] = [:]
        for (key, feature) in features {
            for (index, rule) in feature.rules.enumerated() {
                let position = RulePosition(feature: key, index: index)
                if let experiment = rule.experiment {
                    byPosition[position] = experimentsByName[Self.experimentName(experiment, feature: key)]
                }
                guard let name = byPosition[position]?.name else { continue }
                if featuresOf[name]?.last != key { featuresOf[name, default: []].append(key) }
            }
        }
        experimentsByPosition = byPosition
        featuresByExperiment = featuresOf
    }

    /// The attributes each rule's condition and hashing read, with the
    /// experiments (rules) that read them, each listed once.
    var targetingAttributes: [String: [String]] {
        var result: [String: [String]] = [:]
        for (key, feature) in features {
            for (index, rule) in feature.rules.enumerated() {
                guard let experiment = experiment(at: RulePosition(feature: key, index: index)) else { continue }
                var names: [String] = []
                switch rule.kind {
                case .force(let value):
                    names = value.condition?.attributeNames ?? []
                    names += value.fallbackAttribute.map { [$0] } ?? []
                case .rollout(let value):
                    names = value.condition?.attributeNames ?? []
                    names +=
                        [GrowthBookHash.attribute(value.hashAttribute)] + (value.fallbackAttribute.map { [$0] } ?? [])
                case .experiment(let rule), .bandit(let rule, _):
                    names = rule.condition?.attributeNames ?? []
                    names +=
                        [GrowthBookHash.attribute(rule.hashAttribute)] + (rule.fallbackAttribute.map { [$0] } ?? [])
                case .ignored:
                    continue
                }
                for name in names where result[name]?.contains(experiment.name) != true {
                    result[name, default: []].append(experiment.name)
                }
            }
        }
        return result
    }

    /// Experiment rules, then force and rollout rules.
    var all: [Experiment] { experimentRules + ruleExperiments.map(\.experiment) }

    /// The experiment the rule at `position` stands for, if it stands for one.
    func experiment(at position: RulePosition) -> Experiment? {
        experimentsByPosition[position]
    }

    /// The decoded rule at `position`, if there is one.
    func rule(at position: RulePosition) -> FeatureRule? {
        guard let feature = payload.decodedFeatures[position.feature], feature.rules.indices.contains(position.index)
        else { return nil }
        return feature.rules[position.index]
    }

    /// The variant of a force or rollout rule's experiment that stands for the feature's default value.
    static let defaultVariant = "Default"
    /// The variant of a force or rollout rule's experiment that stands for the rule's value.
    static let ruleVariant = "RuleValue"

    /// The Laboratory name of the experiment a rule runs: its key, as the SDK
    /// tracks it (`rule.key || feature key`).
    private static func experimentName(_ experiment: GrowthBookExperiment, feature: String) -> String {
        experiment.key.isEmpty ? feature : experiment.key
    }

    /// Force and rollout rules as experiments of two variants, `RuleValue` (the
    /// rule's value) and `Default` (the feature's default, the baseline), so the
    /// console lists them as such and QA can force either; their weights are
    /// the share of users the rule gives its value (all for a force rule).
    private static func forceAndRolloutRules(
        of features: [(key: String, feature: GrowthBookFeature)]
    ) -> [(position: RulePosition, experiment: Experiment)] {
        var result: [(RulePosition, Experiment)] = []
        for (key, feature) in features {
            var counts: [String: Int] = [:]
            for (index, rule) in feature.rules.enumerated() {
                let kind: String
                let forced: ForcedValue
                switch rule.kind {
                case .force(let value): (kind, forced) = ("force", value)
                case .rollout(let value): (kind, forced) = ("rollout", value)
                case .experiment, .bandit, .ignored: continue
                }
                counts[kind, default: 0] += 1
                let name = "\(key): \(kind)" + (counts[kind]! > 1 ? " \(counts[kind]!)" : "")
                // The shares say what the rule does: everyone (a force), or a rollout's part of the users.
                var share = min(max(forced.coverage ?? 1, 0), 1)
                if let range = forced.range { share = min(range.share, 1) }
                let experiment = Experiment(
                    name: name,
                    keys: [key],
                    variants: [
                        Variant(
                            name: defaultVariant,
                            weight: 1 - share,
                            assignments: [key: AssignmentValue(feature.defaultValue)]
                        ),
                        Variant(
                            name: ruleVariant,
                            weight: share,
                            assignments: [key: AssignmentValue(forced.value)]
                        ),
                    ],
                    baseline: defaultVariant,
                    bucketing: .hash
                )
                result.append((RulePosition(feature: key, index: index), experiment))
            }
        }
        return result
    }

    /// Every experiment rule as a Laboratory experiment: name = the rule's
    /// key, variants named by `meta[].name`, `meta[].key` or index, each
    /// assigning every feature that runs the experiment its variation's value,
    /// baseline = variation 0. Rules of one key in several features merge.
    private static func experimentRules(of features: [(key: String, feature: GrowthBookFeature)]) -> [Experiment] {
        var order: [String] = []
        var rulesByKey: [String: [(feature: String, experiment: GrowthBookExperiment)]] = [:]
        for (key, feature) in features {
            for rule in feature.rules {
                guard let experiment = rule.experiment else { continue }
                let name = experimentName(experiment, feature: key)
                if rulesByKey[name] == nil { order.append(name) }
                rulesByKey[name, default: []].append((key, experiment))
            }
        }
        return order.compactMap { name -> Experiment? in
            let rules = rulesByKey[name]!
            let count = rules.map(\.experiment.variations.count).min() ?? 0
            guard count > 0 else { return nil }
            let first = rules[0].experiment
            let variants = (0..<count).map { index -> Variant in
                let info = index < first.meta.count ? first.meta[index] : nil
                var assignments = VariantAssignments()
                for (feature, experiment) in rules {
                    assignments[feature] = AssignmentValue(experiment.variations[index])
                }
                return Variant(
                    name: info?.name ?? info?.key ?? String(index),
                    weight: first.weights.map { index < $0.count ? max($0[index], 0.000001) : 1 } ?? 1,
                    assignments: assignments
                )
            }
            let named = Self.uniqueNames(variants)
            return Experiment(
                name: name,
                keys: rules.map(\.feature),
                variants: named,
                baseline: named[0].name,
                bucketing: .hash,
                title: rules.lazy.compactMap(\.experiment.name).first { !$0.isEmpty }
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
}
