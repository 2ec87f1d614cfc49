/// The outcome of running one experiment for a user.
public struct ExperimentResult: Sendable, Hashable {
    /// The variation's key: its `meta` key, or its index.
    public var key: String
    /// The feature whose rule ran the experiment, if one did.
    public var featureId: String?
    /// Whether the user takes part (is tracked); otherwise `value` is the first variation's.
    public var inExperiment: Bool
    /// Whether the user was bucketed by hash (not forced or taken out).
    public var hashUsed: Bool
    /// The variation's index.
    public var variationId: Int
    /// The variation's value.
    public var value: JSONValue
    /// The attribute the user was bucketed by (the fallback attribute when that one was used).
    public var hashAttribute: String
    /// The hash attribute's value (GrowthBook's `hashValue`; renamed, as
    /// `hashValue` is `Hashable`'s).
    public var attributeValue: JSONValue
    /// Whether a stored sticky bucket decided the variation.
    public var stickyBucketUsed: Bool
    /// The user's hash in [0, 1), when bucketed by hash.
    public var bucket: Double?
    /// The variation's name from `meta`.
    public var name: String?
    /// Whether the variation passes through to the feature's other rules.
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
        /// The payload has no feature of this key: the value is `null`.
        case unknownFeature
        /// No rule applied: the feature's default value.
        case defaultValue
        /// A force or rollout rule gave its value.
        case force
        /// An experiment rule put the user in a variation.
        case experiment
        /// A prerequisite feature was not what the feature needs: the value is `null`.
        case prerequisite
        /// The prerequisites lead back to the feature itself: the value is `null`.
        case cyclicPrerequisite
        /// A value the app forced (``GrowthBookContext/forcedFeatures``).
        case override
    }

    /// The feature's value (`null` for an unknown feature).
    public var value: JSONValue
    /// Why the feature has its value.
    public var source: Source
    /// The `id` of the rule that decided; empty for a default or an unnamed rule.
    public var ruleId: String
    /// The experiment rule that decided, as GrowthBook builds it.
    public var experiment: JSONValue?
    /// The result of the experiment that decided, when one did.
    public var experimentResult: ExperimentResult?
    /// The position of the deciding rule in the feature's rules.
    public var ruleIndex: Int?

    /// Whether the value is truthy as JavaScript reads it.
    public var on: Bool { JavaScriptSemantics.truthy(value) }
    /// Whether the value is falsy (`false`, `0`, `""`, `null`).
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
