import Foundation

/// Something that provides experiments and their active variants on this device.
///
/// The local catalog, the remote payload and the debug source are sources;
/// the ``AssignmentsManager`` merges the active variants of all of them.
public protocol ExperimentSource: AnyObject, Sendable {
    /// The source's name, e.g. `Local`; unique among the manager's sources.
    var name: String { get }

    /// Every experiment the source knows, active here or not, sorted by name.
    var experiments: [Experiment] { get }

    /// The experiments active on this device and their variants.
    func activeVariants() throws -> [ActiveVariant]

    /// Fetches the source's data again. On failure the source keeps its last good data.
    func update() async throws

    /// From now on, assignments of this source do not change on this device
    /// and new experiments are not exposed.
    func stabilize() throws

    /// When the source was stabilized on this device, or `nil`.
    func stabilization() throws -> Date?

    /// The sources that fetch data: `[self]` for a plain source, the wrapped
    /// ones for a source that wraps others.
    var leaves: [any ExperimentSource] { get }

    /// The source's experiments as GrowthBook features that SDKs evaluate for
    /// any user, targeting kept, with `forced` (this source's forced variants)
    /// written in; `nil` for a source whose variants belong to this device
    /// (a catalog's draws), which `lab serve` serves as this device's values.
    func sharedFeatures(forcing forced: [ForcedVariant]) -> SharedFeatures?

    /// Takes attributes a person set (an overrides file's): a local source
    /// takes `userId` as the logged-in user. Sources that use none ignore them.
    func useAttributes(_ attributes: [String: String])

    /// How the source decides each of `experiments` (all when `nil`) on
    /// this device, step by step, for `lab explain` and the console; empty
    /// for a source whose experiments the core explains itself (a catalog's
    /// draws, tokens and hashes).
    func decisionSteps(for experiments: [String]?) -> [String: [Explanation.Step]]

    /// A line on how the source is doing beyond its fetch status (a
    /// payload's age, counts and warnings), for Settings and `lab update`.
    var statusDetail: String? { get }

    /// The draws the source made on this device, by experiment: empty for a
    /// source that does not draw (a payload's hashes decide its variants).
    func draws() throws -> [String: Draw]

    /// The logged-in user the source assigns for, if it has one.
    var userID: String? { get }
}

extension ExperimentSource {
    public var leaves: [any ExperimentSource] { [self] }

    public func sharedFeatures(forcing forced: [ForcedVariant]) -> SharedFeatures? { nil }

    public func useAttributes(_ attributes: [String: String]) {}

    public func decisionSteps(for experiments: [String]?) -> [String: [Explanation.Step]] { [:] }

    public var statusDetail: String? { nil }

    public func draws() throws -> [String: Draw] { [:] }

    public var userID: String? { nil }

    /// The experiment with this name, if the source has it.
    public func experiment(named name: String) -> Experiment? {
        experiments.first { $0.name == name }
    }
}
