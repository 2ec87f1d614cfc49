import Foundation

/// One user of a ``GrowthBookClient``: their attributes and the payload the
/// client served when the user was made, so a request's evaluations all see
/// one payload. Cheap to make (no copy of the payload) and to pass around;
/// copies share one evaluator, and evaluations from several tasks take turns.
public struct GrowthBookUser: Sendable {
    /// The user's evaluator, set up once: the payload's features, these
    /// attributes, the options, the tracking callback, the sticky buckets.
    /// The only stored property: a user one word wide is passed in a
    /// register, and an evaluation through the public entry copies nothing.
    private let evaluator: UserEvaluator

    /// The user's attributes, the client's under their own.
    public var attributes: GrowthBookAttributes { evaluator.attributes }

    init(
        client: GrowthBookClient,
        payload: GrowthBookPayload?,
        options: GrowthBookClient.Options,
        attributes: GrowthBookAttributes,
        url: String?
    ) {
        var context = payload?.context(attributes: attributes.json) ?? GrowthBookContext(attributes: attributes.json)
        context.url = url
        context.forcedFeatures = options.forcedFeatures
        context.forcedVariations = options.forcedVariations
        context.enabled = options.enabled
        context.qaMode = options.qaMode
        evaluator = UserEvaluator(
            GrowthBookEvaluator(context: context),
            attributes: attributes,
            client: client,
            tracks: options.onExperimentViewed != nil,
            reportsUsage: options.onFeatureUsage != nil
        )
    }

    /// Whether the feature is on: its value is truthy as JavaScript reads it
    /// (`false`, `0`, `""`, `null` and an unknown feature are off).
    public func isOn(_ feature: String) -> Bool { evaluate(feature).on }

    /// The feature's value as `T`, or `defaultValue` when the feature is
    /// unknown, `null`, or of another kind (a string where a number was asked).
    public func value<T: FeatureValue>(for feature: String, default defaultValue: T) -> T {
        T(featureValue: evaluate(feature).value) ?? defaultValue
    }

    /// The feature's value decoded as `T` (any `Decodable`), `nil` when it is unknown or `null`.
    /// - Throws: ``GrowthBookError/valueNotDecodable(feature:type:reason:)``.
    public func value<T: Decodable>(for feature: String, as type: T.Type) throws(GrowthBookError) -> T? {
        let value = evaluate(feature).value
        guard value != .null else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(value.jsonText.utf8))
        } catch {
            throw .valueNotDecodable(feature: feature, type: "\(T.self)", reason: "\(error)")
        }
    }

    /// The feature's value and why: the rule that decided (`source`,
    /// `ruleId`) and, when an experiment did, the experiment and its result.
    public func evaluate(_ feature: String) -> FeatureResult {
        // Without a usage callback, the result is made where the caller wants it, not copied there.
        guard evaluator.reportsUsage else { return evaluator.evaluateFeature(feature) }
        let result = evaluator.evaluateFeature(feature)
        evaluator.client.used(feature, result)
        return result
    }

    /// Runs an experiment written in code for this user.
    public func run<Value>(_ experiment: InlineExperiment<Value>) -> InlineExperimentResult<Value> {
        let result = run(experiment.json)
        let index = result.variationId
        let value = index >= 0 && index < experiment.variations.count ? experiment.variations[index] : nil
        return InlineExperimentResult(
            value: value,
            inExperiment: result.inExperiment,
            variationId: index,
            result: result
        )
    }

    /// Runs an experiment given in GrowthBook's JSON shape for this user.
    public func run(_ experiment: JSONValue) -> ExperimentResult {
        evaluator.withEvaluator { $0.run(experiment) }
    }

    /// Turns sticky bucketing on for this user with documents read from
    /// `service` (see ``AsyncStickyBucketService``); the evaluator keeps
    /// what each evaluation saves for the next.
    func useStickyBuckets(from service: any AsyncStickyBucketService) async {
        let buckets = await UserStickyBuckets(service: service, identifiers: evaluator.stickyBucketIdentifiers)
        evaluator.useStickyBuckets(buckets)
    }
}
