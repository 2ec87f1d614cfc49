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
    /// The position of the deciding rule in the feature's rules.
    public var ruleIndex: Int?
    /// The experiment part, when an experiment decided: kept apart, by
    /// reference, so that a result is a few words to return and copy (an
    /// experiment's result is 160 bytes), and reused by the evaluator
    /// while nobody else holds it (``DecidingExperiment``).
    var decidingExperiment: DecidingExperiment?

    /// The experiment rule that decided, as GrowthBook builds it.
    public var experiment: JSONValue? {
        get { decidingExperiment?.experiment }
        set { changeExperimentPart(experiment: newValue, result: experimentResult) }
    }

    /// The result of the experiment that decided, when one did.
    public var experimentResult: ExperimentResult? {
        get { decidingExperiment?.result }
        set { changeExperimentPart(experiment: experiment, result: newValue) }
    }

    /// Gives the experiment part these values: a new part, since another result may share this one.
    private mutating func changeExperimentPart(experiment: JSONValue?, result: ExperimentResult?) {
        decidingExperiment =
            experiment == nil && result == nil
            ? nil : DecidingExperiment(experiment: experiment, result: result)
    }

    public static func == (lhs: FeatureResult, rhs: FeatureResult) -> Bool {
        lhs.value == rhs.value && lhs.source == rhs.source && lhs.ruleId == rhs.ruleId
            && lhs.ruleIndex == rhs.ruleIndex && lhs.experiment == rhs.experiment
            && lhs.experimentResult == rhs.experimentResult
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(source)
        hasher.combine(ruleId)
        hasher.combine(ruleIndex)
        hasher.combine(experiment)
        hasher.combine(experimentResult)
    }

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

// The initializer the evaluator uses is the memberwise one
// (`init(value:source:ruleId:ruleIndex:decidingExperiment:)`), which the
// compiler writes only while the struct itself declares none. It builds the
// result in one piece; a written one filled it member by member in a stack
// slot, and each result the evaluator returned was then copied and the
// original destroyed: a sixth of a force rule's instructions.
extension FeatureResult {
    /// A result; `experiment` and `experimentResult` when an experiment decided.
    public init(
        value: JSONValue,
        source: Source,
        ruleId: String,
        experiment: JSONValue? = nil,
        experimentResult: ExperimentResult? = nil
    ) {
        self.init(value: value, source: source, ruleId: ruleId, ruleIndex: nil)
        changeExperimentPart(experiment: experiment, result: experimentResult)
    }
}

/// The experiment part of a feature's result: the rule's experiment and the
/// user's result in it.
///
/// A class so that a result carries it by reference. The evaluator keeps
/// what makes the result (the experiment, the variation, the bucket, whom
/// it hashed), not the result itself: most callers ask a feature's value,
/// and making and copying a 160-byte result for each was a third of an
/// experiment's evaluation. The evaluator also keeps the last part it
/// handed out and fills it again once the caller has let go of it (it is
/// changed only while one reference holds it, as an array's storage is),
/// so evaluating experiments one after another allocates nothing.
final class DecidingExperiment: @unchecked Sendable {
    /// What makes an evaluated experiment's result.
    struct Evaluated {
        var experiment: GrowthBookExperiment
        var featureId: String
        var outcome: ExperimentOutcome
        var hashAttribute: String
        var attributeValue: JSONValue
        /// A contextual bandit's leaf and weights, for a user it bucketed by hash.
        var bandit: [JSONValue.Member]?
    }

    /// An experiment and its result as someone gave them (``FeatureResult``'s
    /// initializer and setters). Boxed: an ``ExperimentResult`` is 160 bytes,
    /// and inline it made every part that large, copied twice with `memcpy`
    /// each time the evaluator refilled its part.
    final class Given: Sendable {
        let experiment: JSONValue?
        let result: ExperimentResult?

        init(experiment: JSONValue?, result: ExperimentResult?) {
            self.experiment = experiment
            self.result = result
        }
    }

    /// As the evaluator found it; `nil` in a part ``given``. A property of
    /// its own, not an enum's case, so that a refill changes its members in
    /// place: an enum's value is copied out whole to be changed.
    private var evaluated: Evaluated?
    /// As someone gave it; `nil` in a part the evaluator made.
    private let given: Given?

    /// A part the evaluator made.
    init(evaluated: Evaluated) {
        self.evaluated = evaluated
        given = nil
    }

    /// A part as someone gave it.
    init(experiment: JSONValue?, result: ExperimentResult?) {
        evaluated = nil
        given = Given(experiment: experiment, result: result)
    }

    /// Fills a part the evaluator made again with its next experiment for
    /// the same user, member by member in place (a whole new content counted
    /// the references of all of its members again and destroyed the last
    /// one's). Whom it hashed stays, unless ``rehash(attribute:value:)`` changes it.
    func refill(
        experiment: GrowthBookExperiment,
        featureId: String,
        outcome: ExperimentOutcome,
        bandit: [JSONValue.Member]?
    ) {
        evaluated!.experiment = experiment
        evaluated!.featureId = featureId
        evaluated!.outcome = outcome
        if evaluated!.bandit != nil || bandit != nil { evaluated!.bandit = bandit }
    }

    /// Sets the attribute the experiment hashed and its value.
    func rehash(attribute: String, value: JSONValue) {
        evaluated!.hashAttribute = attribute
        evaluated!.attributeValue = value
    }

    /// The experiment rule that decided, as GrowthBook builds it.
    var experiment: JSONValue? {
        guard let evaluated else { return given?.experiment }
        guard let bandit = evaluated.bandit else { return evaluated.experiment.json }
        return .object((evaluated.experiment.json.members ?? []) + [.init("contextualBandit", .object(bandit))])
    }

    /// The user's result in the experiment.
    var result: ExperimentResult? {
        guard let evaluated else { return given?.result }
        var result = evaluated.outcome.result(
            of: evaluated.experiment,
            featureId: evaluated.featureId,
            hashAttribute: evaluated.hashAttribute,
            attributeValue: evaluated.attributeValue
        )
        if let bandit = evaluated.bandit { result.extras = bandit }
        return result
    }
}

/// How a user came out of an experiment: a few plain values, from which
/// the full ``ExperimentResult`` is made when one is wanted.
struct ExperimentOutcome {
    /// The variation's index (0 when the user is not in the experiment).
    var variation: Int
    var inExperiment: Bool
    var hashUsed = false
    var stickyBucketUsed = false
    var bucket: Double?
    /// Whom the experiment hashed: an index the evaluator keeps.
    var subject: Int

    /// In variation `index` of `experiment`, or not in it (and given the
    /// first variation) when `index` is not one of its variations.
    init(_ experiment: GrowthBookExperiment, variation index: Int, subject: Int) {
        let valid = index >= 0 && index < experiment.variations.count
        variation = valid ? index : 0
        inExperiment = valid
        self.subject = subject
    }

    /// Not in `experiment`.
    init(notIn experiment: GrowthBookExperiment, subject: Int) {
        self.init(experiment, variation: -1, subject: subject)
    }

    /// The full result, for a user whose hash attribute and value these are.
    func result(
        of experiment: GrowthBookExperiment,
        featureId: String?,
        hashAttribute: String,
        attributeValue: JSONValue
    ) -> ExperimentResult {
        let meta = variation < experiment.meta.count ? experiment.meta[variation] : nil
        return ExperimentResult(
            key: experiment.resultKey(variation),
            featureId: featureId,
            inExperiment: inExperiment,
            hashUsed: hashUsed,
            variationId: variation,
            value: experiment.variations.isEmpty ? .null : experiment.variations[variation],
            hashAttribute: hashAttribute,
            attributeValue: attributeValue,
            stickyBucketUsed: stickyBucketUsed,
            bucket: bucket,
            name: meta?.name,
            passthrough: meta?.passthrough
        )
    }
}
