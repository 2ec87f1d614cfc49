import GrowthBook
import Laboratory

/// What one assignment key gives this device, as `lab serve` answers for it:
/// the value the manager serves, or the baseline's when no experiment with the
/// key is active, and why (in OpenFeature's reason names).
package struct ServedFlag: Sendable, Hashable {
    /// OpenFeature's evaluation reasons, the ones OFREP clients accept.
    package enum Reason: String, Sendable, Hashable, Encodable {
        /// A person forced the variant (console, `lab force`, overrides file).
        case `static` = "STATIC"
        /// Drawn by weight or hashed into a variant.
        case split = "SPLIT"
        /// A whitelist, a resolved experiment or GrowthBook targeting put the device here.
        case targetingMatch = "TARGETING_MATCH"
        /// No experiment with the key is active: the baseline.
        case `default` = "DEFAULT"
        /// A person forced the experiment `Inactive`: the baseline.
        case disabled = "DISABLED"
    }

    package var key: String
    package var value: AssignmentValue
    package var variant: String
    /// The experiment that decides, if one does (a feature with no rule that applies has none).
    package var experiment: String?
    package var source: String
    package var forced: Bool
    package var reason: Reason

    package init(
        key: String,
        value: AssignmentValue,
        variant: String,
        experiment: String?,
        source: String,
        forced: Bool,
        reason: Reason
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.experiment = experiment
        self.source = source
        self.forced = forced
        self.reason = reason
    }

    /// A shared feature's evaluation for some user.
    init(key: String, source: String, evaluation: SharedFeatures.Evaluation) {
        self.init(
            key: key,
            value: evaluation.value,
            variant: evaluation.variant,
            experiment: evaluation.experiment,
            source: source,
            forced: evaluation.forced,
            reason: Reason(evaluation)
        )
    }
}

extension ServedFlag.Reason {
    /// The reason for GrowthBook's decision: experiments split, rules target.
    init(_ evaluation: SharedFeatures.Evaluation) {
        switch evaluation.decision {
        case _ where evaluation.forced: self = .static
        case .experiment: self = .split
        case .rule: self = .targetingMatch
        case .defaultValue: self = .default
        }
    }
}

extension ServedFlag {
    /// Adds every field to an ETag's hash: the bulk answer's tag changes
    /// exactly when one of its flags does.
    func hash(into hash: inout FNV1a) {
        hash.add(key)
        hash.add(JSONValue(value).jsonText)  // "1" and 1 hash apart
        hash.add(variant)
        hash.add(experiment.map { "=" + $0 } ?? "-")  // none, and an empty name, hash apart
        hash.add(source)
        hash.add(forced ? "forced" : "")
        hash.add(reason.rawValue)
    }
}
