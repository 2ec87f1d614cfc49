/// An experiment that is active on this device, and the variant it runs.
public struct ActiveVariant: Sendable, Hashable {
    /// The source that provides the experiment (the wrapped one, for a debug source).
    public var source: String
    /// The experiment.
    public var experiment: Experiment
    /// The variant this device runs.
    public var variant: Variant
    /// Whether a person forced the variant through the debug source.
    public var forced: Bool

    public init(source: String, experiment: Experiment, variant: Variant, forced: Bool = false) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.forced = forced
    }

    /// The variant's assignments, sorted by key.
    public var assignments: [Assignment] {
        variant.assignments.keys.sorted().map { key in
            Assignment(
                key: key, value: variant.assignments[key]!, experiment: experiment.name,
                variant: variant.name, source: source)
        }
    }
}
