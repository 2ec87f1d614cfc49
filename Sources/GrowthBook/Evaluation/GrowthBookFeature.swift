/// A feature decoded once: its default value and its rules, typed.
public final class GrowthBookFeature: Sendable {
    public let defaultValue: JSONValue
    public let rules: [FeatureRule]
    /// Whether a rule has prerequisites, so evaluating the feature may
    /// evaluate others (and needs the bookkeeping that cuts cycles short).
    public let hasPrerequisites: Bool

    /// Decodes features by key; the first of a repeated key wins, as in a JavaScript object.
    public static func index(_ features: [JSONValue.Member]) -> [String: GrowthBookFeature] {
        var index: [String: GrowthBookFeature] = [:]
        index.reserveCapacity(features.count)
        for member in features where index[member.key] == nil {
            index[member.key] = GrowthBookFeature(id: member.key, json: member.value)
        }
        return index
    }

    /// Decodes a feature definition (`defaultValue`, `rules`) of the feature `id`.
    public init(id: String, json: JSONValue) {
        defaultValue = json["defaultValue"] ?? .null
        rules = (json["rules"]?.elements ?? []).map { FeatureRule(feature: id, json: $0) }
        // A rule's experiment never has prerequisites of its own: they stay on the rule.
        hasPrerequisites = rules.contains { !$0.parentConditions.isEmpty }
    }
}

/// One rule of a feature: what it does (``Kind``), and the targeting every
/// kind shares. A class, so that walking the rules copies references.
public final class FeatureRule: Sendable {
    /// What a rule does.
    public enum Kind: Sendable {
        /// The feature takes a value, for everyone the rule targets.
        case force(ForcedValue)
        /// The feature takes a value for a share of the users (`coverage` or `range`).
        case rollout(ForcedValue)
        /// Users are split over variations.
        case experiment(GrowthBookExperiment)
        /// Users are split by the weights of a contextual bandit's leaf (the
        /// bandit named by `reference`), over the rule's `contextualVariations`.
        case bandit(GrowthBookExperiment, reference: String)
        /// A rule the SDK steps over: neither a value nor variations.
        case ignored
    }

    public let id: String
    public let kind: Kind
    /// What ``kind`` holds, apart, so evaluation reads it without copying the enum.
    let forcedValue: ForcedValue?
    let ruleExperiment: GrowthBookExperiment?
    let banditReference: String?
    public let parentConditions: [ParentCondition]
    public let filters: [Filter]?
    /// The rule as given, for traces.
    public let json: JSONValue

    init(feature: String, json: JSONValue) {
        self.json = json
        id = json["id"]?.stringValue ?? ""
        parentConditions = (json["parentConditions"]?.elements ?? []).map(ParentCondition.init)
        filters = json["filters"].map { ($0.elements ?? []).map(Filter.init) }
        if let force = json["force"] {
            let value = ForcedValue(feature: feature, value: force, json: json)
            kind = json["coverage"] != nil || json["range"] != nil ? .rollout(value) : .force(value)
        } else if let variations = json["contextualVariations"] ?? json["variations"], variations.elements != nil {
            let experiment = GrowthBookExperiment(Self.experiment(of: json, variations: variations, feature: feature))
            if let reference = json["contextualBanditRef"]?.stringValue {
                kind = .bandit(experiment, reference: reference)
            } else {
                kind = .experiment(experiment)
            }
        } else {
            kind = .ignored
        }
        switch kind {
        case .force(let value), .rollout(let value): (forcedValue, ruleExperiment, banditReference) = (value, nil, nil)
        case .experiment(let experiment): (forcedValue, ruleExperiment, banditReference) = (nil, experiment, nil)
        case .bandit(let experiment, let reference):
            (forcedValue, ruleExperiment, banditReference) = (nil, experiment, reference)
        case .ignored: (forcedValue, ruleExperiment, banditReference) = (nil, nil, nil)
        }
    }

    /// The experiment an experiment rule runs, with only the keys the rule sets.
    private static func experiment(of rule: JSONValue, variations: JSONValue, feature: String) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("variations", variations),
            .init("key", rule["key"] ?? .string(feature)),
        ]
        for key in [
            "coverage", "weights", "hashAttribute", "fallbackAttribute", "disableStickyBucketing",
            "bucketVersion", "minBucketVersion", "namespace", "meta", "ranges", "name", "phase", "seed",
            "hashVersion", "filters", "condition",
        ] {
            if let value = rule[key] { members.append(.init(key, value)) }
        }
        return .object(members)
    }

    /// The experiment the rule runs, for experiment and bandit rules.
    public var experiment: GrowthBookExperiment? { ruleExperiment }
}

/// The value a force or rollout rule gives, and whom to.
public final class ForcedValue: Sendable {
    public let value: JSONValue
    public let condition: Condition?
    public let seed: String
    public let hashAttribute: String?
    public let fallbackAttribute: String?
    /// `range`, when it is a pair of numbers.
    public let range: HalfOpenRange?
    /// Whether `range` was given at all (a malformed one still makes the rule a rollout).
    let hasRange: Bool
    public let coverage: Double?
    public let hashVersion: Int

    init(feature: String, value: JSONValue, json: JSONValue) {
        self.value = value
        condition = json["condition"].map(Condition.init)
        seed = json["seed"]?.stringValue ?? feature
        hashAttribute = json["hashAttribute"]?.stringValue
        fallbackAttribute = json["fallbackAttribute"]?.stringValue
        hasRange = json["range"] != nil
        if let bounds = json["range"]?.elements?.compactMap(\.numberValue), bounds.count == 2 {
            range = HalfOpenRange(lower: bounds[0], upper: bounds[1])
        } else {
            range = nil
        }
        coverage = json["coverage"]?.numberValue
        hashVersion = JavaScriptSemantics.hashVersion(json["hashVersion"], fallback: 1)
    }
}

/// A contextual bandit: leaves in order, each with a condition on the
/// user's context and the variation weights for users who meet it.
public struct ContextualBandit: Sendable {
    public struct Leaf: Sendable {
        public var condition: Condition
        public var leafId: JSONValue?
        public var weights: JSONValue?
    }

    public var leaves: [Leaf]
    public var banditVersion: JSONValue?

    /// Decodes bandits by reference; the first of a repeated reference wins.
    public static func index(_ bandits: [JSONValue.Member]) -> [String: ContextualBandit] {
        var index: [String: ContextualBandit] = [:]
        for member in bandits where index[member.key] == nil { index[member.key] = ContextualBandit(member.value) }
        return index
    }

    public init(_ json: JSONValue) {
        leaves = (json["contexts"]?.elements ?? []).map { leaf in
            Leaf(
                condition: Condition(leaf["condition"] ?? .object([])),
                leafId: leaf["leafId"],
                weights: leaf["weights"]
            )
        }
        banditVersion = json["banditVersion"]
    }
}
