/// An experiment that is active on this device, and the variant it runs.
///
/// The variant is almost always one of the experiment's own, and is kept as
/// its position there: an active variant is copied into the source's list,
/// the debug source's entries and the manager's snapshot, 10,000 of each at
/// the largest catalogs, and a copy of the variant itself was 80 bytes of
/// the 128 each of those copies took.
public struct ActiveVariant: Sendable, Hashable {
    /// The source that provides the experiment (the wrapped one, for a debug source).
    public var source: String
    /// The experiment.
    public var experiment: Experiment {
        get { storedExperiment }
        set {
            let kept = variant
            storedExperiment = newValue
            variantPlace = VariantPlace(kept, in: newValue)
        }
    }
    /// The variant this device runs.
    public var variant: Variant {
        get { variantPlace.variant(in: storedExperiment) }
        set { variantPlace = VariantPlace(newValue, in: storedExperiment) }
    }
    /// Whether a person forced the variant through the debug source.
    public var forced: Bool
    /// Who forced it, when a forced variant says (its tester).
    public var forcedBy: String?
    /// Why the source runs this variant here.
    public var basis: Basis

    private var storedExperiment: Experiment
    private var variantPlace: VariantPlace

    /// Where the variant is kept: one of the experiment's variants, by
    /// position, or (a variant the experiment does not have) a copy of its own.
    private enum VariantPlace: Sendable {
        case position(Int)
        indirect case own(Variant)

        init(_ variant: Variant, in experiment: Experiment) {
            let variants = experiment.variants
            // By name first: comparing names is cheap, and the names of an experiment's variants differ.
            if let index = variants.firstIndex(where: { $0.name == variant.name }), variants[index] == variant {
                self = .position(index)
            } else {
                self = .own(variant)
            }
        }

        func variant(in experiment: Experiment) -> Variant {
            switch self {
            case .position(let index): return experiment.variants[index]
            case .own(let variant): return variant
            }
        }
    }

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
        storedExperiment = experiment
        variantPlace = VariantPlace(variant, in: experiment)
        self.forced = forced
        self.forcedBy = forcedBy
        self.basis = basis ?? (forced ? .forced : .drawn)
    }

    /// The keys the variant assigns, sorted: read where the variant is, not through a copy of it.
    var assignedKeys: [String] {
        switch variantPlace {
        case .position(let index): return storedExperiment.assignedKeys(ofVariantAt: index)
        case .own(let variant): return variant.assignments.keys
        }
    }

    /// Whether `other` runs the same variant: at once when both keep it at
    /// the same position of the same experiment (one reference to compare).
    func runsSameVariant(as other: ActiveVariant) -> Bool {
        if case .position(let index) = variantPlace, case .position(let otherIndex) = other.variantPlace,
            index == otherIndex, storedExperiment.isSame(as: other.storedExperiment)
        {
            return true
        }
        return variant == other.variant
    }

    /// The variant's assignments, sorted by key.
    public var assignments: [Assignment] {
        let variant = self.variant
        return variant.assignments.map { key, value in
            Assignment(
                key: key,
                value: value,
                experiment: experiment.name,
                variant: variant.name,
                source: source
            )
        }
    }
}

extension ActiveVariant {
    public static func == (lhs: ActiveVariant, rhs: ActiveVariant) -> Bool {
        lhs.source == rhs.source && lhs.storedExperiment == rhs.storedExperiment && lhs.forced == rhs.forced
            && lhs.forcedBy == rhs.forcedBy && lhs.basis == rhs.basis && lhs.runsSameVariant(as: rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(storedExperiment)
        hasher.combine(variant)
        hasher.combine(forced)
        hasher.combine(forcedBy)
        hasher.combine(basis)
    }
}

extension ActiveVariant: Codable {
    /// The fields as the compiler would have coded them: in order, `forcedBy` only when present.
    private enum CodingKeys: String, CodingKey {
        case source, experiment, variant, forced, forcedBy, basis
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(String.self, forKey: .source),
            experiment: try container.decode(Experiment.self, forKey: .experiment),
            variant: try container.decode(Variant.self, forKey: .variant),
            forced: try container.decode(Bool.self, forKey: .forced),
            forcedBy: try container.decodeIfPresent(String.self, forKey: .forcedBy),
            basis: try container.decode(Basis.self, forKey: .basis)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(experiment, forKey: .experiment)
        try container.encode(variant, forKey: .variant)
        try container.encode(forced, forKey: .forced)
        try container.encodeIfPresent(forcedBy, forKey: .forcedBy)
        try container.encode(basis, forKey: .basis)
    }
}
