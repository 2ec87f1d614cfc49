/// One experiment as the debug source sees it.
public struct DebugEntry: Sendable, Hashable, Codable {
    /// The source the experiment belongs to.
    public var source: String
    /// The experiment, as its source has it.
    public var experiment: Experiment
    /// What the source itself runs on this device, forced or not.
    public var natural: ActiveVariant?
    /// Every forced variant of this experiment, for any scope, the one that
    /// would win first (``ForcedVariant/precedes(_:)``).
    public private(set) var forcedVariants: [ForcedVariant]
    /// The attributes the scopes are matched against: this device's.
    public var attributes: [String: String]

    /// The forced variant that decides this experiment on this device: of
    /// those whose scope matches the device, the one that precedes the others;
    /// a stale one only when every match is stale (it is then ignored, and
    /// explanations say so); `nil` when none matches. Almost every experiment
    /// has none, so it is looked up, not kept.
    public var forcedVariant: ForcedVariant? {
        // The common case first: a lazy filter over nothing still copies the entry into its closure.
        if forcedVariants.isEmpty { return nil }
        let matching = forcedVariants.lazy.filter { $0.scope.matches(self.attributes) }
        return matching.first { !Self.isStale($0, in: self.experiment) } ?? matching.first
    }

    /// An entry; its forced variants are kept in precedence order, whatever order they come in.
    public init(
        source: String,
        experiment: Experiment,
        natural: ActiveVariant?,
        forcedVariants: [ForcedVariant] = [],
        attributes: [String: String] = [:]
    ) {
        self.source = source
        self.experiment = experiment
        self.natural = natural
        self.forcedVariants = forcedVariants.sorted { $0.precedes($1) }
        self.attributes = attributes
    }

    private static func isStale(_ forced: ForcedVariant, in experiment: Experiment) -> Bool {
        forced.variant.map { experiment.variant(named: $0) == nil } ?? false
    }

    /// Whether `forced` names a variant this experiment no longer has.
    public func isStale(_ forced: ForcedVariant) -> Bool {
        Self.isStale(forced, in: experiment)
    }

    /// Whether the forced variant names a variant the experiment no longer has.
    public var isStale: Bool {
        forcedVariant.map { Self.isStale($0, in: experiment) } ?? false
    }

    /// Whether a (non-stale) forced variant decides this experiment.
    public var isForced: Bool { forcedVariant != nil && !isStale }

    /// What the app gets: the forced variant, nothing when forced inactive, else the natural one.
    public var effective: ActiveVariant? {
        guard let forcedVariant, !isStale else { return natural }
        guard let name = forcedVariant.variant, let variant = experiment.variant(named: name) else { return nil }
        return ActiveVariant(
            source: source,
            experiment: experiment,
            variant: variant,
            forced: true,
            forcedBy: forcedVariant.tester
        )
    }

    /// The forced variants for some users only, that still name a variant
    /// of the experiment (or Inactive): what `lab serve` writes into rules
    /// conditioned on their scopes, the first to win first.
    public var scopedForcedVariants: [ForcedVariant] {
        forcedVariants.filter { !$0.scope.isEveryone && !Self.isStale($0, in: experiment) }
    }

    /// The forced variant a user with `attributes` gets, stale ones left
    /// out; without attributes, this device's.
    public func forcedVariant(for attributes: [String: String]?) -> ForcedVariant? {
        guard let attributes else { return isForced ? forcedVariant : nil }
        return forcedVariants.first { $0.scope.matches(attributes) && !Self.isStale($0, in: experiment) }
    }
}
