/// An experiment that is active on this device, and the variant it runs.
public struct ActiveVariant: Sendable, Hashable, Codable {
    /// The source that provides the experiment (the wrapped one, for a debug source).
    public var source: String
    /// The experiment.
    public var experiment: Experiment
    /// The variant this device runs.
    public var variant: Variant
    /// Whether a person forced the variant through the debug source.
    public var forced: Bool
    /// Who forced it, when a forced variant says (its tester).
    public var forcedBy: String?
    /// Why the source runs this variant here.
    public var basis: Basis

    /// Why a source runs a variant on this device.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// Drawn by weight and stored.
        case drawn
        /// Computed from the subject's id.
        case hashed
        /// The subject's id is on the experiment's whitelist.
        case whitelisted
        /// The experiment is resolved: everyone gets the winner.
        case resolved
        /// Forced through the debug source.
        case forced
        /// A GrowthBook payload's rules put the device here.
        case growthBook

        /// How a person reads it: `drawn`, `by GrowthBook's rules`…
        public var words: String {
            switch self {
            case .drawn, .hashed, .whitelisted, .resolved, .forced: return rawValue
            case .growthBook: return "by GrowthBook's rules"
            }
        }
    }

    /// An active variant; `forced` and `forcedBy` say whether a person forced it and who, `basis` how it was decided.
    public init(
        source: String,
        experiment: Experiment,
        variant: Variant,
        forced: Bool = false,
        forcedBy: String? = nil,
        basis: Basis? = nil
    ) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.forced = forced
        self.forcedBy = forcedBy
        self.basis = basis ?? (forced ? .forced : .drawn)
    }

    /// The variant's assignments, sorted by key.
    public var assignments: [Assignment] {
        variant.assignments.keys.sorted().map { key in
            Assignment(
                key: key,
                value: variant.assignments[key]!,
                experiment: experiment.name,
                variant: variant.name,
                source: source
            )
        }
    }
}
