import Foundation
import GrowthBook

/// A source's experiments as GrowthBook features that any SDK evaluates for
/// any user, targeting kept, with the variants a person forced written in so
/// that every user gets them (see ``ForcedRuleRewriter``).
///
/// `lab serve` passes these features through to the apps it steers, and
/// evaluates them for an OFREP request's context.
public struct SharedFeatures: Sendable {
    /// The source they come from.
    public let source: String
    /// The features, in payload order, forced variants written in.
    public let features: [JSONValue.Member]
    /// The saved groups their conditions refer to.
    public let savedGroups: [String: [JSONValue]]
    /// The contextual bandits their bandit rules refer to.
    public let contextualBandits: [String: JSONValue]
    /// The attributes the source evaluates this device with (`id` included).
    public let deviceAttributes: JSONValue
    /// Feature → what each of its rules stands for, in rule order.
    let origins: [String: [RuleOrigin?]]
    /// The features and bandits decoded once, so each request only evaluates.
    private let decodedFeatures: FeatureTable
    private let decodedBandits: [String: ContextualBandit]

    /// The Laboratory experiment a rule stands for, and the variant a person
    /// forced it to (then the rule was rewritten to give it to everyone).
    struct RuleOrigin: Sendable {
        var experiment: Experiment
        var forcedVariant: String?
    }

    init(
        source: String,
        features: [JSONValue.Member],
        savedGroups: [String: [JSONValue]],
        contextualBandits: [String: JSONValue] = [:],
        deviceAttributes: JSONValue,
        origins: [String: [RuleOrigin?]]
    ) {
        self.source = source
        self.features = features
        self.savedGroups = savedGroups
        self.contextualBandits = contextualBandits
        self.deviceAttributes = deviceAttributes
        self.origins = origins
        decodedFeatures = GrowthBookFeature.index(features)
        decodedBandits = contextualBandits.mapValues(ContextualBandit.init)
    }

    /// What one feature gives a user, and which experiment decided it.
    public struct Evaluation: Sendable, Hashable {
        /// How the value was decided, in GrowthBook's terms.
        public enum Decision: Sendable, Hashable {
            /// An experiment rule put the user in a variation.
            case experiment
            /// A force or rollout rule applied.
            case rule
            /// No rule applied: the feature's default value.
            case defaultValue
        }

        /// The feature's value for the user.
        public var value: AssignmentValue
        /// The deciding experiment's name (a rule key, or `<feature>: force`), if a rule decided.
        public var experiment: String?
        /// The variant's name: a variation's meta name, `RuleValue` or `Default`.
        public var variant: String
        /// What decided it: the default value, a rule, or an experiment.
        public var decision: Decision
        /// Whether a person forced the deciding rule's variant.
        public var forced: Bool
    }

    /// The names an SDK reports for variations besides the variant names
    /// the experiments took (those come from `meta[].name` first): each
    /// `meta[].key` that differs, by experiment, alias → variant.
    public func variantAliases() -> [String: [String: String]] {
        var aliases: [String: [String: String]] = [:]
        for member in features {
            guard let origins = origins[member.key], let rules = decodedFeatures[member.key]?.rules else { continue }
            for (rule, origin) in zip(rules, origins) {
                guard let origin, let meta = rule.experiment?.meta else { continue }
                for (index, info) in meta.enumerated() where index < origin.experiment.variants.count {
                    guard let key = info.key else { continue }
                    let name = origin.experiment.variants[index].name
                    if key != name { aliases[origin.experiment.name, default: [:]][key] = name }
                }
            }
        }
        return aliases
    }

    /// The keys of the features, in payload order.
    public var keys: [String] { features.map(\.key) }

    /// Evaluates `key` for a user with `attributes` (this device's when `nil`),
    /// as a GrowthBook SDK given these features would; `nil` for an unknown key.
    public func evaluate(_ key: String, attributes: JSONValue? = nil) -> Evaluation? {
        guard decodedFeatures[key] != nil else { return nil }
        var evaluator = GrowthBookEvaluator(
            context: GrowthBookContext(
                attributes: attributes ?? deviceAttributes,
                features: decodedFeatures,
                savedGroups: savedGroups,
                contextualBandits: decodedBandits
            )
        )
        let result = evaluator.evaluateFeature(key)
        let value = AssignmentValue(result.value)
        let origin = result.ruleIndex.flatMap { index in
            origins[key].flatMap { index < $0.count ? $0[index] : nil } ?? nil
        }
        switch result.source {
        case .experiment:
            let index = result.experimentResult?.variationId ?? 0
            let variants = origin?.experiment.variants ?? []
            return Evaluation(
                value: value,
                experiment: origin?.experiment.name
                    ?? result.ruleIndex.flatMap { decodedFeatures[key]?.rules[$0].experiment?.key },
                variant: index < variants.count ? variants[index].name : String(index),
                decision: .experiment,
                forced: origin?.forcedVariant != nil
            )
        case .force:
            return Evaluation(
                value: value,
                experiment: origin?.experiment.name,
                variant: origin?.forcedVariant ?? GrowthBookExperiments.ruleVariant,
                decision: .rule,
                forced: origin?.forcedVariant != nil
            )
        default:
            return Evaluation(
                value: value,
                experiment: nil,
                variant: GrowthBookExperiments.defaultVariant,
                decision: .defaultValue,
                forced: false
            )
        }
    }
}
