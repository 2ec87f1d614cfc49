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

    /// Takes the device's attributes as they are now (its own, the stored
    /// overrides, a run's): they replace those given before, so one taken
    /// away is gone. A local source takes `userId` as the logged-in user;
    /// sources that use none ignore them.
    func useAttributes(_ attributes: [String: String])

    /// The attributes the source's targeting reads, each with the
    /// experiments that read it: what QA may set to see them run.
    var targetingAttributes: [String: [String]] { get }

    /// Attributes the source supplies itself when nobody gives them
    /// (GrowthBook's `id`, the device id).
    var defaultAttributes: [String: String] { get }

    /// A file on this machine the source reads its experiments from besides
    /// the wiring's catalogs (a GrowthBook payload file): a running console
    /// or `lab serve` calls ``update()`` when it is edited, as it reloads catalogs.
    var watchedFile: String? { get }

    /// How the source decides each of `experiments` (all when `nil`) on
    /// this device, step by step, for `lab explain` and the console; empty
    /// for a source whose experiments the core explains itself (a catalog's
    /// draws, tokens and hashes).
    func decisionSteps(for experiments: [String]?) -> [String: [Explanation.Step]]

    /// Whether ``decisionSteps(for:)`` has anything to say: a console asks
    /// such a source for the steps of the experiment it shows, when shown.
    var explainsItself: Bool { get }

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

    public var targetingAttributes: [String: [String]] { [:] }

    public var defaultAttributes: [String: String] { [:] }

    public var watchedFile: String? { nil }

    public func decisionSteps(for experiments: [String]?) -> [String: [Explanation.Step]] { [:] }

    public var explainsItself: Bool { false }

    public var statusDetail: String? { nil }

    public func draws() throws -> [String: Draw] { [:] }

    public var userID: String? { nil }

    /// The experiment with this name, if the source has it.
    public func experiment(named name: String) -> Experiment? {
        experiments.first { $0.name == name }
    }
}
