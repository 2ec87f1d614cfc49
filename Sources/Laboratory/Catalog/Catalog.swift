/// The experiments of one local source, as read from a catalog file.
public struct Catalog: Sendable, Hashable {
    /// The source's name, e.g. `Local`.
    public var source: String
    /// The experiments, in file order.
    public var experiments: [Experiment]

    /// A catalog of `source` holding `experiments`.
    public init(source: String, experiments: [Experiment]) {
        self.source = source
        self.experiments = experiments
    }
}
