import Foundation

/// Something that provides experiments and their active variants on this device.
///
/// The local catalog, the remote payload and the debug source are sources;
/// the ``AssignmentsManager`` merges the active variants of all of them.
/// What an app needs of a source is its six members without defaults. What
/// the tools need besides comes as capabilities, each a protocol of its own
/// that a source conforms to when it can: ``TargetedSource`` (takes
/// attributes), ``DrawingSource`` (draws variants for this device),
/// ``ExplainingSource`` (says how it decides), ``SharingSource`` (shares its
/// features for `lab serve`) and ``FetchingSource`` (fetches from a file or
/// a server). Code holding `any ExperimentSource` reaches a capability
/// through its member here (``targeting``, ``drawing``, ``explaining``,
/// ``sharing``, ``fetching``), which is the source itself when it conforms
/// and `nil` otherwise: no downcasts.
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

    /// This source as one that takes the device's attributes, if it does.
    var targeting: (any TargetedSource)? { get }

    /// This source as one that draws variants for this device, if it does.
    var drawing: (any DrawingSource)? { get }

    /// This source as one that explains its own decisions, if it does.
    var explaining: (any ExplainingSource)? { get }

    /// This source as one whose features `lab serve` shares, if it is.
    var sharing: (any SharingSource)? { get }

    /// This source as one that fetches from a file or a server, if it does.
    var fetching: (any FetchingSource)? { get }
}

extension ExperimentSource {
    public var leaves: [any ExperimentSource] { [self] }

    public var targeting: (any TargetedSource)? { nil }

    public var drawing: (any DrawingSource)? { nil }

    public var explaining: (any ExplainingSource)? { nil }

    public var sharing: (any SharingSource)? { nil }

    public var fetching: (any FetchingSource)? { nil }

    /// The experiment with this name, if the source has it.
    public func experiment(named name: String) -> Experiment? {
        experiments.first { $0.name == name }
    }
}
