/// The outcome of running one experiment for a user.
public struct ExperimentResult: Sendable, Hashable {
    public var key: String
    public var featureId: String?
    public var inExperiment: Bool
    public var hashUsed: Bool
    public var variationId: Int
    public var value: JSONValue
    public var hashAttribute: String
    /// The hash attribute's value (GrowthBook's `hashValue`; renamed, as
    /// `hashValue` is `Hashable`'s).
    public var attributeValue: JSONValue
    public var stickyBucketUsed: Bool
    public var bucket: Double?
    public var name: String?
    public var passthrough: Bool?
    /// Further members some rule types add (a contextual bandit's leaf and weights).
    public var extras: [JSONValue.Member] = []

    /// The result in GrowthBook's JSON shape.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("key", .string(key)), .init("featureId", featureId.map(JSONValue.string) ?? .null),
            .init("inExperiment", .bool(inExperiment)), .init("hashUsed", .bool(hashUsed)),
            .init("variationId", .number(Double(variationId))), .init("value", value),
            .init("hashAttribute", .string(hashAttribute)), .init("hashValue", attributeValue),
            .init("stickyBucketUsed", .bool(stickyBucketUsed)),
        ]
        if let bucket { members.append(.init("bucket", .number(bucket))) }
        if let name { members.append(.init("name", .string(name))) }
        if let passthrough { members.append(.init("passthrough", .bool(passthrough))) }
        return .object(members + extras)
    }
}

/// The outcome of evaluating one feature for a user.
public struct FeatureResult: Sendable, Hashable {
    /// Why the feature has its value.
    public enum Source: String, Sendable, Hashable {
        case unknownFeature, defaultValue, force, experiment, prerequisite, cyclicPrerequisite
        /// A value the app forced (``GrowthBookContext/forcedFeatures``).
        case override
    }

    public var value: JSONValue
    public var source: Source
    public var ruleId: String
    /// The experiment rule that decided, as GrowthBook builds it.
    public var experiment: JSONValue?
    public var experimentResult: ExperimentResult?
    /// The position of the deciding rule in the feature's rules.
    public var ruleIndex: Int?

    public var on: Bool { JavaScriptSemantics.truthy(value) }
    public var off: Bool { !on }

    /// The result in GrowthBook's JSON shape.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("value", value), .init("on", .bool(on)), .init("off", .bool(off)),
            .init("source", .string(source.rawValue)), .init("ruleId", .string(ruleId)),
        ]
        if let experiment { members.append(.init("experiment", experiment)) }
        if let experimentResult { members.append(.init("experimentResult", experimentResult.json)) }
        return .object(members)
    }
}
