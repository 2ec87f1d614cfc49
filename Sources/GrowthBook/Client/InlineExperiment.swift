/// An experiment written in code rather than in a payload (GrowthBook's
/// inline experiments), with variations of one Swift type.
///
/// ```swift
/// let headline = InlineExperiment(key: "headline", variations: ["Hello", "Welcome"])
/// let result = user.run(headline)   // result.value is a String
/// ```
public struct InlineExperiment<Value: FeatureValue>: Sendable {
    /// The experiment's key, what tracking reports.
    public var key: String
    /// The value of each variation.
    public var variations: [Value]
    /// How the users are split over the variations; equal when `nil`.
    public var weights: [Double]?
    /// The share of users in the experiment at all, from 0 to 1.
    public var coverage: Double?
    /// A targeting condition in GrowthBook's JSON shape.
    public var condition: JSONValue?
    /// The attribute users are bucketed by (`id` when `nil`).
    public var hashAttribute: String?
    /// 1 or 2; GrowthBook's SDKs use 1 for inline experiments unless told otherwise.
    public var hashVersion: Int?
    /// What users are hashed with (the key when `nil`).
    public var seed: String?
    /// `(id, start, end)`: only users hashed into [start, end) of the namespace take part.
    public var namespace: (id: String, start: Double, end: Double)?

    /// An experiment; everything but the key and variations as GrowthBook's defaults.
    public init(
        key: String,
        variations: [Value],
        weights: [Double]? = nil,
        coverage: Double? = nil,
        condition: JSONValue? = nil,
        hashAttribute: String? = nil,
        hashVersion: Int? = nil,
        seed: String? = nil,
        namespace: (id: String, start: Double, end: Double)? = nil
    ) {
        self.key = key
        self.variations = variations
        self.weights = weights
        self.coverage = coverage
        self.condition = condition
        self.hashAttribute = hashAttribute
        self.hashVersion = hashVersion
        self.seed = seed
        self.namespace = namespace
    }

    /// The experiment in GrowthBook's JSON shape, as the evaluator runs it.
    var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("key", .string(key)), .init("variations", .array(variations.map(\.featureValue))),
        ]
        if let weights { members.append(.init("weights", .array(weights.map(JSONValue.number)))) }
        if let coverage { members.append(.init("coverage", .number(coverage))) }
        if let condition { members.append(.init("condition", condition)) }
        if let hashAttribute { members.append(.init("hashAttribute", .string(hashAttribute))) }
        if let hashVersion { members.append(.init("hashVersion", .number(Double(hashVersion)))) }
        if let seed { members.append(.init("seed", .string(seed))) }
        if let namespace {
            members.append(
                .init("namespace", .array([.string(namespace.id), .number(namespace.start), .number(namespace.end)]))
            )
        }
        return .object(members)
    }
}

/// What running an ``InlineExperiment`` gave a user: the variation's value
/// as its Swift type, and the full result.
public struct InlineExperimentResult<Value: FeatureValue>: Sendable {
    /// The variation the user sees (the first, when not in the experiment);
    /// `nil` only for an experiment without variations.
    public var value: Value?
    /// Whether the user takes part (and was tracked).
    public var inExperiment: Bool
    /// The variation's index.
    public var variationId: Int
    /// Everything GrowthBook reports: hash attribute and value, bucket, key.
    public var result: ExperimentResult
}
