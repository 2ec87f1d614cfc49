import Foundation

/// One user of a ``GrowthBookClient``: their attributes and the payload the
/// client served when the user was made, so a request's evaluations all see
/// one payload. Cheap to make (no copy of the payload) and to pass around.
public struct GrowthBookUser: Sendable {
    private let client: GrowthBookClient
    /// What the evaluator runs against: the payload's features, these attributes, the options.
    private let context: GrowthBookContext
    /// The user's attributes, the client's under their own.
    public let attributes: GrowthBookAttributes
    /// The user's sticky buckets, when the client was asked for them.
    private var stickyBuckets: UserStickyBuckets?

    init(
        client: GrowthBookClient,
        payload: GrowthBookPayload?,
        options: GrowthBookClient.Options,
        attributes: GrowthBookAttributes,
        url: String?
    ) {
        self.client = client
        self.attributes = attributes
        var context = payload?.context(attributes: attributes.json) ?? GrowthBookContext(attributes: attributes.json)
        context.url = url
        context.forcedFeatures = options.forcedFeatures
        context.forcedVariations = options.forcedVariations
        context.enabled = options.enabled
        context.qaMode = options.qaMode
        self.context = context
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
        var evaluator = evaluator()
        let result = evaluator.evaluateFeature(feature)
        client.used(feature, result)
        return result
    }

    /// Runs an experiment written in code for this user.
    public func run<Value>(_ experiment: InlineExperiment<Value>) -> InlineExperimentResult<Value> {
        var evaluator = evaluator()
        let result = evaluator.run(experiment.json)
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
        var evaluator = evaluator()
        return evaluator.run(experiment)
    }

    /// This user with sticky buckets read from `service` (see ``AsyncStickyBucketService``).
    func withStickyBuckets(from service: any AsyncStickyBucketService) async -> GrowthBookUser {
        var user = self
        let identifiers = GrowthBookEvaluator(context: context).stickyBucketIdentifiers()
        user.stickyBuckets = await UserStickyBuckets(service: service, identifiers: identifiers)
        return user
    }

    private func evaluator() -> GrowthBookEvaluator {
        var evaluator = GrowthBookEvaluator(context: context)
        if let stickyBuckets { evaluator.useStickyBuckets(stickyBuckets) }
        let client = client
        evaluator.onExperimentViewed = { experiment, result in client.viewed(experiment, result) }
        return evaluator
    }
}
