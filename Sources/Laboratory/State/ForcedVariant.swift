/// The variant a person forced for one experiment through the debug source
/// (the console, `lab force`, an overrides file), or `Inactive`.
public struct ForcedVariant: Sendable, Hashable, Codable {
    /// The source of the experiment.
    public var source: String
    /// The experiment.
    public var experiment: String
    /// The variant to force, or `nil` to deactivate the experiment.
    public var variant: String?

    public init(source: String, experiment: String, variant: String?) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
    }
}
