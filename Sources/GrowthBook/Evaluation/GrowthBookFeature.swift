/// A feature decoded once: its default value and its rules, typed.
public final class GrowthBookFeature: Sendable {
    /// The value when no rule applies.
    public let defaultValue: JSONValue
    /// The rules, tried in order.
    public let rules: [FeatureRule]
    /// Whether a rule has prerequisites, so evaluating the feature may
    /// evaluate others (and needs the bookkeeping that cuts cycles short).
    public let hasPrerequisites: Bool
    /// Whether every rule is a force rule that hashes nobody (neither a
    /// numeric `coverage` nor a `range`: ``ForcedValue/hashesUsers``) or one
    /// the SDK steps over, none with prerequisites or filters: what
    /// the feature decides then depends on the context alone, nothing an
    /// evaluator keeps (hashed attributes, memos, sticky buckets), so it is
    /// decided without one (``GrowthBookEvaluator/plainResult(of:attributes:groups:)``).
    let isPlain: Bool
    /// Whether the feature is plain but for rollouts that hash an attribute
    /// without a fallback: the front door finds and hashes those attributes
    /// once per user (``FeatureTable/rolloutAttributes``), so it decides the
    /// feature without the user's turn too.
    let isTurnFree: Bool
    /// Whether the payload checks must read the feature: it is not an
    /// object, its `rules` are not a list, or a rule ``FeatureRule/needsChecks``.
    /// The checks skip the others whole: walking every feature's members
    /// to find its rules took them 40 µs after a decode of 1,000 features.
    let needsChecks: Bool

    /// Decodes features by key; the first of a repeated key wins, as in a
    /// JavaScript object. Many features are decoded in batches on every
    /// core (`FeatureStreamDecoder`, as a payload is while it is parsed).
    public static func index(_ features: [JSONValue.Member]) -> FeatureTable {
        FeatureTable(keys: FeatureTable.Keys(keysOf: features), features: decoded(features).features)
    }

    /// Decodes features in their order, repeated keys and all, on the cores
    /// the calling thread may run on.
    static func decoded(_ features: [JSONValue.Member]) -> DecodedFeatures {
        FeatureStreamDecoder().decodeAll(features)
    }

    /// Decodes a feature definition (`defaultValue`, `rules`) of the feature `id`.
    public init(id: String, json: JSONValue) {
        // The members by index, the first of a repeated name (as `json[name]`
        // finds it): a lookup by name copied the value it found, and
        // `elements` the list, each copy a reference counted and released.
        var defaultValue: JSONValue?
        var rules: [FeatureRule] = []
        var hasRulesList = true
        var isObject = false
        if case .object(let members) = json {
            isObject = true
            var hasRules = false
            for index in members.indices {
                if defaultValue == nil, members[index].key == "defaultValue" {
                    defaultValue = members[index].value
                } else if !hasRules, members[index].key == "rules" {
                    hasRules = true
                    guard case .array(let elements) = members[index].value else {
                        hasRulesList = false
                        continue
                    }
                    rules.reserveCapacity(elements.count)
                    for element in elements.indices { rules.append(FeatureRule(feature: id, json: elements[element])) }
                }
            }
        }
        self.defaultValue = defaultValue ?? .null
        self.rules = rules
        // A rule's experiment never has prerequisites of its own: they stay on the rule.
        hasPrerequisites = rules.contains { !$0.parentConditions.isEmpty }
        var isPlain = true
        var isTurnFree = true
        for rule in rules where isTurnFree {
            if rule.hasParentConditions || rule.hasFilters || rule.ruleExperiment != nil {
                (isPlain, isTurnFree) = (false, false)
            } else if let forced = rule.forcedValue, forced.hashesUsers {
                isPlain = false
                // A fallback attribute is hashed only with sticky bucketing, which the user's turn keeps.
                isTurnFree = forced.fallbackAttribute?.isEmpty ?? true
            }
        }
        self.isPlain = isPlain
        self.isTurnFree = isTurnFree
        needsChecks = !isObject || !hasRulesList || rules.contains { $0.needsChecks }
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

    /// The rule's `id`, reported in results.
    public let id: String
    /// What the rule does.
    public let kind: Kind
    /// What ``kind`` holds, apart, so evaluation reads it without copying the enum.
    package let forcedValue: ForcedValue?
    /// ``forcedValue`` for the walk, which holds the rule while it reads it.
    let unretainedForcedValue: Unretained<ForcedValue>?
    let ruleExperiment: GrowthBookExperiment?
    /// ``ruleExperiment`` for the walk, which holds the rule while it runs it.
    let unretainedExperiment: Unretained<GrowthBookExperiment>?
    let banditReference: String?
    /// Prerequisites: other features whose values must meet conditions.
    public let parentConditions: [ParentCondition]
    /// Mutual-exclusion filters: a user outside any of them skips the rule.
    public let filters: [Filter]?
    /// Whether ``parentConditions`` is not empty: read on every evaluation, without touching the list.
    let hasParentConditions: Bool
    /// Whether ``filters`` is not `nil`: read on every evaluation, without touching the list.
    let hasFilters: Bool
    /// Whether the payload checks must read the rule: its decode did not
    /// clear it (``RuleChecker/isRegular(_:)``, and its condition's compile,
    /// ``Condition/hasOnlyPlainTests(count:)``). Most rules are cleared, and
    /// the checks skip them (``PayloadLinter``): clearing a rule costs about
    /// 250 instructions, where checking it again cost about 1,700.
    /// Declared beside the other flags, in their padding.
    let needsChecks: Bool
    /// The rule as given, for traces.
    public let json: JSONValue

    init(feature: String, json: JSONValue) {
        self.json = json
        let members = RuleMembers(json)
        id = members[members.id]?.stringValue ?? ""
        parentConditions = (members[members.parentConditions]?.elements ?? []).map(ParentCondition.init)
        filters = members[members.filters].map { ($0.elements ?? []).map(Filter.init) }
        hasParentConditions = !parentConditions.isEmpty
        hasFilters = filters != nil
        if let force = members[members.force] {
            let value = ForcedValue(feature: feature, value: force, members: members)
            kind = members.coverage != nil || members.range != nil ? .rollout(value) : .force(value)
        } else if let variations = members[members.contextualVariations ?? members.variations],
            variations.elements != nil
        {
            let experiment = GrowthBookExperiment(rule: json, members: members, feature: feature)
            if let reference = members[members.contextualBanditRef]?.stringValue {
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
        unretainedForcedValue = forcedValue.map(Unretained.init)
        unretainedExperiment = ruleExperiment.map(Unretained.init)
        needsChecks = !Self.isRegular(json, members, condition: forcedValue?.condition ?? ruleExperiment?.condition)
    }

    /// Whether a rule is one the payload checks find nothing in: an object
    /// that ``RuleChecker/isRegular(_:)`` clears, whose condition is missing,
    /// falsy, or compiled (as `condition`) into plain tests.
    private static func isRegular(_ json: JSONValue, _ members: RuleMembers, condition: Condition?) -> Bool {
        guard case .object = json, RuleChecker.isRegular(members) else { return false }
        guard let given = members[members.condition] else { return true }
        guard case .object(let parts) = given else { return !JavaScriptSemantics.truthy(given) }
        return condition?.hasOnlyPlainTests(count: parts.count) ?? false
    }

    /// The experiment the rule runs, for experiment and bandit rules.
    public var experiment: GrowthBookExperiment? { ruleExperiment }
}

/// The value a force or rollout rule gives, and whom to.
public final class ForcedValue: Sendable {
    /// The value the feature takes.
    public let value: JSONValue
    package let condition: Condition?
    /// ``condition`` for the walk, which holds this value while it reads it.
    let unretainedCondition: Unretained<Condition>?
    /// What a rollout hashes with (`seed || feature key`).
    public let seed: String
    /// ``seed`` as hashing reads it; empty for a rule that hashes nobody
    /// (neither `coverage` nor `range`), which then keeps no copy of it.
    let hashSeed: GrowthBookHash.Seed
    /// The attribute a rollout hashes (`id` when missing or empty).
    public let hashAttribute: String?
    /// That attribute's slot (``AttributeSlots``), or -1: how an evaluator finds whom it hashed already.
    let hashSlot: Int32
    /// The attribute hashed when the hash attribute has no value, with sticky bucketing only.
    public let fallbackAttribute: String?
    /// Whether the rule keeps out of sticky bucketing, and so of its fallback attribute.
    public let disableStickyBucketing: Bool
    /// `range`, when it is a pair of numbers.
    public let range: HalfOpenRange?
    /// Whether `range` was given at all (a malformed one still makes the rule a rollout).
    let hasRange: Bool
    /// The share of users the value reaches (a hash at or below it).
    public let coverage: Double?
    /// 1 or 2, or 0 for a version no hash exists for (nobody is included).
    public let hashVersion: Int

    /// Whether the rule hashes users at all (`coverage` or `range`): a force rule reaches everyone its condition holds for.
    var hashesUsers: Bool { hasRange || coverage != nil }

    /// Whether the value reaches a user its condition holds for, whose hash
    /// by ``hashAttribute`` and ``hashSeed`` is `hash` (`nil` when the user
    /// has no value for it, or the hash version is unknown). The hash is
    /// asked for only when the rule hashes users and reaches some.
    @inline(__always)
    func reaches(hash: () -> Double?) -> Bool {
        if !hasRange && coverage == nil { return true }
        if !hasRange && coverage == 0 { return false }
        guard let hash = hash() else { return false }
        if let range { return range.contains(hash) }
        return coverage.map { hash <= $0 } ?? true
    }

    /// Whether the rule's condition holds for `attributes` (a rule without one holds for everyone).
    func conditionHolds(for attributes: AttributeTable, groups: [String: [JSONValue]]) -> Bool {
        guard let unretainedCondition else { return true }
        return unretainedCondition.with { $0.holds(for: attributes, groups: groups) }
    }

    init(feature: String, value: JSONValue, members: RuleMembers) {
        self.value = value
        condition = Condition.given(members[members.condition])
        unretainedCondition = condition.map(Unretained.init)
        seed = JavaScriptSemantics.seed(members[members.seed], or: feature)
        hashSeed = GrowthBookHash.Seed(members.coverage != nil || members.range != nil ? seed : "")
        hashAttribute = members[members.hashAttribute]?.stringValue
        // Only a rule that hashes users takes a slot.
        let hashesUsers = members.coverage != nil || members.range != nil
        hashSlot = hashesUsers ? AttributeSlots.shared.slot(hashing: hashAttribute) : -1
        fallbackAttribute = members[members.fallbackAttribute]?.stringValue
        disableStickyBucketing = JavaScriptSemantics.truthy(members[members.disableStickyBucketing])
        hasRange = members.range != nil
        if let bounds = members[members.range]?.elements?.compactMap(\.numberValue), bounds.count == 2 {
            range = HalfOpenRange(lower: bounds[0], upper: bounds[1])
        } else {
            range = nil
        }
        coverage = members[members.coverage]?.numberValue
        hashVersion = JavaScriptSemantics.hashVersion(members[members.hashVersion], fallback: 1)
    }
}

/// A contextual bandit: leaves in order, each with a condition on the
/// user's context and the variation weights for users who meet it.
public struct ContextualBandit: Sendable {
    /// One context of a bandit: whom it is for, and their weights.
    public struct Leaf: Sendable {
        package var condition: Condition
        /// The leaf's id, reported in results.
        public var leafId: JSONValue?
        /// The variation weights for users the leaf is for.
        public var weights: JSONValue?
    }

    /// The leaves in order; the first whose condition holds decides.
    public var leaves: [Leaf]
    /// The bandit's version, reported in results.
    public var banditVersion: JSONValue?

    /// Decodes bandits by reference; the first of a repeated reference wins.
    public static func index(_ bandits: [JSONValue.Member]) -> [String: ContextualBandit] {
        var index: [String: ContextualBandit] = [:]
        for member in bandits where index[member.key] == nil { index[member.key] = ContextualBandit(member.value) }
        return index
    }

    /// Decodes a bandit from GrowthBook's JSON shape.
    public init(_ json: JSONValue) {
        leaves = (json["contexts"]?.elements ?? []).map { leaf in
            Leaf(
                condition: Condition.orEmpty(leaf["condition"]),
                leafId: leaf["leafId"],
                weights: leaf["weights"]
            )
        }
        banditVersion = json["banditVersion"]
    }
}
