/// An experiment decoded once from GrowthBook's JSON shape (an inline
/// experiment, or the one an experiment rule runs): the members the
/// evaluator reads, typed, with its condition compiled and its bucket ranges
/// computed. Members that are absent stay `nil`, as the JavaScript SDK tells
/// `undefined` apart. A class, so that running it copies one reference.
public final class GrowthBookExperiment: Sendable {
    /// The experiment's key: what tracking reports and forced variations name.
    public let key: String
    /// A name for people (`name`), when the experiment has one.
    public let name: String?
    /// The value of each variation.
    public let variations: [JSONValue]
    /// How users are split over the variations; equal when missing or unusable.
    public let weights: [Double]?
    /// The share of users in the experiment at all, from 0 to 1.
    public let coverage: Double?
    /// The attribute users are bucketed by (`id` when missing or empty).
    public let hashAttribute: String?
    /// That attribute's slot (``AttributeSlots``), or -1: how an evaluator finds whom it hashed already.
    let hashSlot: Int32
    /// The attribute bucketed by when the hash attribute has no value, with sticky bucketing only.
    public let fallbackAttribute: String?
    /// The seed as the SDK reads `seed || key`: a truthy value as JavaScript
    /// prints it, `nil` (the key) when missing, empty or otherwise falsy.
    public let seed: String?
    /// 1 or 2, or 0 for a version no hash exists for.
    public let hashVersion: Int
    /// `seed || key`, as hashing reads it.
    let hashSeed: GrowthBookHash.Seed
    /// Whether this experiment keeps out of sticky bucketing.
    public let disableStickyBucketing: Bool
    /// `bucketVersion` as given (sticky bucket keys print it as JavaScript does).
    public let bucketVersion: JSONValue?
    /// Sticky buckets of bucket versions below this one take their users out of the experiment.
    public let minBucketVersion: Double
    package let namespace: BucketMath.Namespace?
    /// Whether `namespace` was given at all (a malformed one neither includes nor excludes).
    let hasNamespace: Bool
    /// Mutual-exclusion filters: a user outside any of them is not in the experiment.
    public let filters: [Filter]?
    /// Each variation's bucket range as given, in place of weights and coverage.
    public let ranges: [HalfOpenRange]?
    /// What `meta` says of each variation, by index.
    public let meta: [VariationMeta]
    package let condition: Condition?
    /// ``condition`` for the walk, which holds the experiment while it reads it.
    let unretainedCondition: Unretained<Condition>?
    /// Prerequisites: other features whose values must meet conditions.
    public let parentConditions: [ParentCondition]
    /// `force`: every user in the experiment gets this variation.
    public let forcedVariation: Int??
    /// `status: "draft"` or `active: false`: nobody is in it.
    public let isInactive: Bool
    /// `status: "stopped"`: nobody is bucketed.
    public let isStopped: Bool
    /// Where ``json`` comes from.
    private let source: Source
    /// Each variation's bucket range: `ranges`, or computed from the weights and coverage.
    public let bucketRanges: [HalfOpenRange]

    /// What `meta` says of one variation.
    public struct VariationMeta: Sendable {
        /// The key tracking reports for the variation (its index when missing).
        public var key: String?
        /// A name for people.
        public var name: String?
        /// Whether users in this variation are tracked but get the feature's other rules.
        public var passthrough: Bool?
    }

    /// Where an experiment's JSON comes from: given whole (an inline
    /// experiment), or the experiment rule it is made of, whose JSON is built
    /// only when asked (results and traces), not for every rule decoded.
    private enum Source: Sendable {
        case given(JSONValue)
        /// The rule's JSON and the key of its feature.
        case rule(JSONValue, feature: String)
    }

    /// The experiment as given, for results and traces. A rule's experiment
    /// is GrowthBook's shape of it: `variations`, `key` (`rule.key || feature`)
    /// and the members the rule sets that an experiment reads.
    public var json: JSONValue {
        switch source {
        case .given(let json): return json
        case .rule(let rule, let feature): return Self.json(ofRule: RuleMembers(rule), feature: feature)
        }
    }

    /// `meta` as given, read without building ``json``: sticky buckets find a
    /// variation by its key there.
    var givenMeta: JSONValue? {
        switch source {
        case .given(let json): return json["meta"]
        case .rule(let rule, _):
            let members = RuleMembers(rule)
            return members[members.meta]
        }
    }

    /// Decodes an experiment; missing or mistyped members read as the SDK reads them.
    public convenience init(_ json: JSONValue) {
        self.init(json, weights: json["weights"])
    }

    /// Decodes an experiment with `weights` in place of its own.
    private convenience init(_ json: JSONValue, weights: JSONValue?) {
        let members = RuleMembers(json)
        self.init(
            members,
            key: members[members.key]?.stringValue ?? "",
            weights: weights,
            ownMembers: members,
            source: .given(json)
        )
    }

    /// Decodes the experiment an experiment rule runs, read from the rule's
    /// members (`members`, of `rule`) in place: the rule's JSON is read once,
    /// where an object of the experiment's members was made and read again
    /// for every experiment rule decoded.
    convenience init(rule: JSONValue, members: RuleMembers, feature: String) {
        let experiment = members.ofExperiment
        self.init(
            experiment,
            key: Self.key(ofRule: experiment, feature: feature).stringValue ?? "",
            weights: experiment[experiment.weights],
            ownMembers: nil,
            source: .rule(rule, feature: feature)
        )
    }

    /// Decodes an experiment from `members`; `ownMembers` are those of an
    /// experiment given whole (`force`, `parentConditions`, `status`,
    /// `active`), which a rule's experiment does not have: they stay on the rule.
    private init(
        _ members: RuleMembers,
        key: String,
        weights weightsJSON: JSONValue?,
        ownMembers: RuleMembers?,
        source: Source
    ) {
        self.source = source
        self.key = key
        name = members[members.name]?.stringValue
        variations = members[members.variations]?.elements ?? []
        weights = weightsJSON?.elements.map(Self.numbers(of:))
        coverage = members[members.coverage]?.numberValue
        hashAttribute = members[members.hashAttribute]?.stringValue
        hashSlot = AttributeSlots.shared.slot(hashing: hashAttribute)
        fallbackAttribute = members[members.fallbackAttribute]?.stringValue
        seed = members[members.seed].flatMap { JavaScriptSemantics.truthy($0) ? JavaScriptSemantics.string($0) : nil }
        hashVersion = JavaScriptSemantics.hashVersion(members[members.hashVersion], fallback: 1)
        hashSeed = GrowthBookHash.Seed(seed ?? key)
        disableStickyBucketing = JavaScriptSemantics.truthy(members[members.disableStickyBucketing])
        bucketVersion = members[members.bucketVersion]
        minBucketVersion = members[members.minBucketVersion]?.numberValue ?? 0
        hasNamespace = members.namespace != nil
        if let parts = members[members.namespace]?.elements, parts.count == 3 {
            namespace = BucketMath.Namespace(
                id: JavaScriptSemantics.string(parts[0]),
                start: parts[1].numberValue ?? 0,
                end: parts[2].numberValue ?? 0
            )
        } else {
            namespace = nil
        }
        filters = members[members.filters].map { ($0.elements ?? []).map(Filter.init) }
        ranges = members[members.ranges]?.elements.map { pairs in
            pairs.map { pair in
                let bounds = pair.elements ?? []
                return HalfOpenRange(lower: bounds.first?.numberValue ?? 0, upper: bounds.last?.numberValue ?? 0)
            }
        }
        meta = (members[members.meta]?.elements ?? []).map { info in
            VariationMeta(
                key: info["key"].map { JavaScriptSemantics.string($0) },
                name: info["name"]?.stringValue,
                passthrough: info["passthrough"]?.boolValue
            )
        }
        condition = Condition.given(members[members.condition])
        unretainedCondition = condition.map(Unretained.init)
        if let own = ownMembers {
            parentConditions = (own[own.parentConditions]?.elements ?? []).map(ParentCondition.init)
            forcedVariation = own[own.force].map { JavaScriptSemantics.integer($0.numberValue) }
            let status = own[own.status]?.stringValue
            isInactive = status == "draft" || own[own.active] == .bool(false)
            isStopped = status == "stopped"
        } else {
            parentConditions = []
            forcedVariation = nil
            isInactive = false
            isStopped = false
        }
        bucketRanges =
            ranges ?? BucketMath.bucketRanges(count: variations.count, coverage: coverage ?? 1, weights: weights)
    }

    /// A rule's experiment's key as the SDK reads `rule.key || id`: a
    /// missing or falsy key is the feature's.
    private static func key(ofRule experiment: RuleMembers, feature: String) -> JSONValue {
        experiment[experiment.key].flatMap { JavaScriptSemantics.truthy($0) ? $0 : nil } ?? .string(feature)
    }

    /// The experiment an experiment rule runs, in GrowthBook's JSON shape:
    /// its variations and key, then only the members the rule sets.
    private static func json(ofRule rule: RuleMembers, feature: String) -> JSONValue {
        let experiment = rule.ofExperiment
        var members: [JSONValue.Member] = []
        members.reserveCapacity(8)  // the usual experiment rule: at most one growth
        members.append(.init("variations", experiment[experiment.variations] ?? .array([])))
        members.append(.init("key", key(ofRule: experiment, feature: feature)))
        // One call a key, where a list of names and positions was an array of tuples made and destroyed per rule.
        func add(_ key: String, _ index: Int?) {
            if let value = experiment[index] { members.append(.init(key, value)) }
        }
        add("coverage", experiment.coverage)
        add("weights", experiment.weights)
        add("hashAttribute", experiment.hashAttribute)
        add("fallbackAttribute", experiment.fallbackAttribute)
        add("disableStickyBucketing", experiment.disableStickyBucketing)
        add("bucketVersion", experiment.bucketVersion)
        add("minBucketVersion", experiment.minBucketVersion)
        add("namespace", experiment.namespace)
        add("meta", experiment.meta)
        add("ranges", experiment.ranges)
        add("name", experiment.name)
        add("phase", experiment.phase)
        add("seed", experiment.seed)
        add("hashVersion", experiment.hashVersion)
        add("filters", experiment.filters)
        add("condition", experiment.condition)
        return .object(members)
    }

    /// The numbers among `elements`, in order, in a list reserved at once
    /// (`compactMap` grew it as it went: two allocations for three weights).
    private static func numbers(of elements: [JSONValue]) -> [Double] {
        var numbers: [Double] = []
        numbers.reserveCapacity(elements.count)
        for element in elements {
            if let number = element.numberValue { numbers.append(number) }
        }
        return numbers
    }

    /// The key a result in variation `index` carries: its `meta` key, or its
    /// index when that is missing or empty. Made when a result is, from the
    /// texts of the first indexes written once (most experiments have two or
    /// three variations): a list of each experiment's keys, made as it was
    /// decoded, was one of its allocations.
    func resultKey(_ index: Int) -> String {
        if index >= 0, index < meta.count, let key = meta[index].key, !key.isEmpty { return key }
        return index >= 0 && index < Self.indexTexts.count ? Self.indexTexts[index] : String(index)
    }

    /// The first variations' indexes as text.
    private static let indexTexts = (0..<16).map { String($0) }

    /// Whether users in variation `index` pass through to the feature's
    /// other rules (its `meta` says `passthrough: true`).
    func passesThrough(_ index: Int) -> Bool {
        index < meta.count && meta[index].passthrough == true
    }

    /// The experiment with other weights (a contextual bandit's leaf), in its JSON too.
    func weighted(_ weights: JSONValue) -> GrowthBookExperiment {
        var members = json.members ?? []
        members.removeAll { $0.key == "weights" }
        members.append(.init("weights", weights))
        return GrowthBookExperiment(.object(members), weights: weights)
    }
}

/// A mutual-exclusion filter: the user must hash into one of its ranges.
public struct Filter: Sendable {
    /// The attribute hashed (`id` when missing).
    public var attribute: String?
    /// What the attribute is hashed with, as JavaScript prints it (`"undefined"` when missing, as the SDK hashes it).
    public var seed: String
    /// 1 or 2 (2 when missing), or 0 for a version no hash exists for: the filter then lets nobody through.
    public var hashVersion: Int
    /// ``seed`` as hashing reads it.
    let hashSeed: GrowthBookHash.Seed
    /// Only ranges of exactly two numbers count.
    public var ranges: [HalfOpenRange]

    init(_ json: JSONValue) {
        attribute = json["attribute"]?.stringValue
        // The SDK hashes `filter.seed + value`: a missing seed prints as "undefined".
        seed = JavaScriptSemantics.string(json["seed"])
        hashSeed = GrowthBookHash.Seed(seed)
        hashVersion = JavaScriptSemantics.hashVersion(json["hashVersion"], fallback: 2)
        ranges = (json["ranges"]?.elements ?? []).compactMap { range in
            let bounds = (range.elements ?? []).compactMap(\.numberValue)
            return bounds.count == 2 ? HalfOpenRange(lower: bounds[0], upper: bounds[1]) : nil
        }
    }
}

/// A prerequisite: another feature whose value must meet a condition.
public struct ParentCondition: Sendable {
    /// The key of the feature whose value is tested.
    public var feature: String
    package var condition: Condition
    /// A gate's failure turns the whole feature off; otherwise the rule is skipped.
    public var gate: Bool

    init(_ json: JSONValue) {
        feature = json["id"]?.stringValue ?? ""
        condition = Condition.orEmpty(json["condition"])
        gate = JavaScriptSemantics.truthy(json["gate"])
    }
}
