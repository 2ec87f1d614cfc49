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
    /// The experiment as given, for results and traces.
    public let json: JSONValue
    /// Each variation's bucket range: `ranges`, or computed from the weights and coverage.
    public let bucketRanges: [HalfOpenRange]
    /// Each variation's result key (``resultKey(_:)``).
    private let variationKeys: [String]

    /// What `meta` says of one variation.
    public struct VariationMeta: Sendable {
        /// The key tracking reports for the variation (its index when missing).
        public var key: String?
        /// A name for people.
        public var name: String?
        /// Whether users in this variation are tracked but get the feature's other rules.
        public var passthrough: Bool?
    }

    /// Decodes an experiment; missing or mistyped members read as the SDK reads them.
    public convenience init(_ json: JSONValue) {
        self.init(json, weights: json["weights"])
    }

    /// Decodes an experiment with `weights` in place of its own.
    private init(_ json: JSONValue, weights weightsJSON: JSONValue?) {
        self.json = json
        let members = RuleMembers(json)
        key = members[members.key]?.stringValue ?? ""
        name = members[members.name]?.stringValue
        variations = members[members.variations]?.elements ?? []
        weights = weightsJSON?.elements.map(Self.numbers(of:))
        coverage = members[members.coverage]?.numberValue
        hashAttribute = members[members.hashAttribute]?.stringValue
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
        parentConditions = (members[members.parentConditions]?.elements ?? []).map(ParentCondition.init)
        forcedVariation = members[members.force].map { JavaScriptSemantics.integer($0.numberValue) }
        let status = members[members.status]?.stringValue
        isInactive = status == "draft" || members[members.active] == .bool(false)
        isStopped = status == "stopped"
        bucketRanges =
            ranges ?? BucketMath.bucketRanges(count: variations.count, coverage: coverage ?? 1, weights: weights)
        variationKeys = variations.indices.map { [meta] in Self.key(of: $0, meta: meta) }
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
    /// index when that is missing or empty.
    func resultKey(_ index: Int) -> String {
        index >= 0 && index < variationKeys.count ? variationKeys[index] : Self.key(of: index, meta: meta)
    }

    /// The key of variation `index`, written once per variation, not once per evaluation.
    private static func key(of index: Int, meta: [VariationMeta]) -> String {
        if index < meta.count, let key = meta[index].key, !key.isEmpty { return key }
        return index >= 0 && index < indexTexts.count ? indexTexts[index] : String(index)
    }

    /// The first variations' indexes as text, written once: most experiments
    /// have two or three variations, and `String(index)` was 1 % of decoding.
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
