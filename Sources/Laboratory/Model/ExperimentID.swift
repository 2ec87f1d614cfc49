/// Which experiment: its source and its name, unique together (two sources
/// may each have an experiment of one name): a key for tables of
/// experiments, instead of a string built from the two.
public struct ExperimentID: Sendable, Hashable, CustomStringConvertible {
    /// The source's name, e.g. `Local`.
    public var source: String
    /// The experiment's name within its source.
    public var name: String

    /// The experiment `name` of `source`.
    public init(source: String, name: String) {
        self.source = source
        self.name = name
    }

    /// `source/name`, the one way an experiment is printed (`Local/ButtonColor`).
    public var description: String { "\(source)/\(name)" }
}

extension ActiveVariant {
    /// The experiment this variant is active for.
    public var experimentID: ExperimentID { ExperimentID(source: source, name: experiment.name) }
}

extension Assignment {
    /// The experiment that assigns the key.
    public var experimentID: ExperimentID { ExperimentID(source: source, name: experiment) }
}

extension Event {
    /// The experiment the event is about.
    public var experimentID: ExperimentID { ExperimentID(source: source, name: experiment) }
}

extension ForcedVariant {
    /// The experiment it forces.
    public var experimentID: ExperimentID { ExperimentID(source: source, name: experiment) }
}

extension Conflict.Party {
    /// The experiment on this side of the conflict.
    public var experimentID: ExperimentID { ExperimentID(source: source, name: experiment) }
}
