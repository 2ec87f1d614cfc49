import Foundation

/// One user of a ``GrowthBookClient``: their attributes and the payload the
/// client served when the user was made, so a request's evaluations all see
/// one payload. Cheap to make (no copy of the payload) and to pass around.
public struct GrowthBookUser: Sendable {
    private let client: GrowthBookClient
    /// The evaluator every evaluation starts from, a copy each time: the
    /// payload's features, these attributes, the options and the tracking
    /// callback, set up once (an evaluation then allocates nothing for them).
    private let template: GrowthBookEvaluator
    /// Whether the client reports feature usage: without a callback no lock is taken.
    private let reportsUsage: Bool
    /// The user's sticky buckets, when the client was asked for them: each
    /// evaluation reads them afresh, so it sees what earlier ones saved.
    private var stickyBuckets: UserStickyBuckets?
    /// The user's attributes, the client's under their own.
    public let attributes: GrowthBookAttributes

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
        var template = GrowthBookEvaluator(context: context)
        template.onExperimentViewed = { experiment, result in client.viewed(experiment, result) }
        self.template = template
        reportsUsage = options.onFeatureUsage != nil
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
        if reportsUsage { client.used(feature, result) }
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
        user.stickyBuckets = await UserStickyBuckets(service: service, identifiers: template.stickyBucketIdentifiers())
        return user
    }

    /// A fresh evaluator for one evaluation (its memo of prerequisites is per evaluation).
    private func evaluator() -> GrowthBookEvaluator {
        var evaluator = template
        if let stickyBuckets { evaluator.useStickyBuckets(stickyBuckets) }
        return evaluator
    }
}
