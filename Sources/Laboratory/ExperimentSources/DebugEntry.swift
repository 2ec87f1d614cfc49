/// One experiment as the debug source sees it.
public struct DebugEntry: Sendable, Hashable {
    public var source: String
    public var experiment: Experiment
    /// What the source itself runs on this device, forced or not.
    public var natural: ActiveVariant?
    /// The variant a person forced for this experiment, if any (stale ones included).
    public var forcedVariant: ForcedVariant?

    /// Whether the forced variant names a variant the experiment no longer has.
    public var isStale: Bool {
        guard let variant = forcedVariant?.variant else { return false }
        return experiment.variant(named: variant) == nil
    }

    /// Whether a (non-stale) forced variant decides this experiment.
    public var isForced: Bool { forcedVariant != nil && !isStale }

    /// What the app gets: the forced variant, nothing when forced inactive, else the natural one.
    public var effective: ActiveVariant? {
        guard let forcedVariant, !isStale else { return natural }
        guard let name = forcedVariant.variant, let variant = experiment.variant(named: name) else { return nil }
        return ActiveVariant(source: source, experiment: experiment, variant: variant, forced: true)
    }
}
