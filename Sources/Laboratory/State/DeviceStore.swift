import Foundation

/// What a device keeps of its own: its identity, each source's draws, and
/// when each source was stabilized. A local source needs only this.
public protocol DeviceStore: WatchableStore {
    /// The device's identity; the candidates are stored only if none is yet.
    func device(candidate: Device) throws -> Device

    /// Settles the draws of one source in one step.
    ///
    /// `decide` is called once for each experiment in `experiments` (a
    /// source's names: each once) with its stored draw (or `nil`); draws of
    /// experiments not listed are forgotten, as the source no longer has them.
    /// - Returns: the draws after the decisions, by experiment.
    func settleDraws(
        source: String,
        experiments: [String],
        at time: Date,
        decide: (String, Draw?) -> DrawDecision
    ) throws -> [String: Draw]

    /// The draws of one source, by experiment.
    func draws(source: String) throws -> [String: Draw]

    /// When the source was stabilized on this device, or `nil`.
    func stabilization(source: String) throws -> Date?

    /// Marks the source stabilized, keeping `payload` (a remote source's data
    /// at that moment, served from then on) with it; when it is stabilized
    /// already, the first time and payload are kept.
    func stabilize(source: String, at time: Date, keeping payload: Data?) throws

    /// The payload kept when the source was stabilized, if any.
    func stabilizedPayload(source: String) throws -> Data?

    /// Forgets that the source was stabilized: a debug action, for testing
    /// stabilization again (`lab stabilize --undo`).
    func unstabilize(source: String) throws

    /// A number that changes whenever the device, a draw or a stabilization
    /// changes, in any process; it may stay when only the rest of the state
    /// changes (a forced variant, the active set, events).
    ///
    /// A local source settles its draws again only when it moved, so a force
    /// among 10,000 experiments does not read and decide 10,000 draws. The
    /// default is ``WatchableStore/revision()``, which moves with every change:
    /// always right, never a saving.
    func deviceRevision() throws -> Int64
}

extension DeviceStore {
    /// The whole store's revision: a store that does not track its device
    /// part apart moves it with everything.
    public func deviceRevision() throws -> Int64 {
        try revision()
    }

    /// Marks the source stabilized; a source with no payload of its own keeps none.
    public func stabilize(source: String, at time: Date) throws {
        try stabilize(source: source, at: time, keeping: nil)
    }
}
