import Foundation

/// Where a device's experiment state lives: token, draws, stabilization,
/// forced variants, and the assignments last seen active.
///
/// Every implementation keeps these rules (the contract suite in
/// `Tests/StateStoreContractTests` checks them for each store):
///
/// - **Atomic calls.** Each call is atomic with respect to every other user
///   of the same storage, in this process or another: the SQLite store runs
///   each one in a single immediate transaction. Two users racing to swap in
///   the same active set see the change reported to exactly one of them.
/// - **The revision moves with changes only.** Every call that changes what
///   the store holds raises ``revision()``; a call that leaves everything as
///   it was (the same forced variant again, the same payload, keeping every
///   draw) does not, and reads never do, so watchers wake for real changes only.
/// - **First come, first kept.** The first device stored and the first
///   stabilization time are kept; later candidates are ignored.
///
/// `InMemoryStateStore` in LaboratoryTesting is the in-memory twin.
public protocol StateStore: Sendable {
    /// The device's identity; the candidates are stored only if none is yet.
    func device(candidate: Device) throws -> Device

    /// Settles the draws of one source in one step.
    ///
    /// `decide` is called once for each experiment in `experiments` with its
    /// stored draw (or `nil`); draws of experiments not listed are forgotten,
    /// as the source no longer has them.
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

    /// The forced variants, sorted by source, experiment and scope (everyone first).
    func forcedVariants() throws -> [ForcedVariant]

    /// Forces a variant, replacing the one forced for its experiment and
    /// scope; the same choice again (``ForcedVariant/isSameChoice(as:)``) changes nothing.
    func setForcedVariant(_ forcedVariant: ForcedVariant) throws

    /// Unforces one experiment for one scope.
    func removeForcedVariant(source: String, experiment: String, scope: Scope) throws

    /// Drops forced variants: every one, those of one source, of one scope, or of both.
    func removeForcedVariants(source: String?, scope: Scope?) throws

    /// Sets many forced variants in one step (an overrides file); with `replacing`,
    /// every other forced variant is dropped first.
    func applyForcedVariants(_ forcedVariants: [ForcedVariant], replacing: Bool) throws

    /// The last good payload of a remote source, kept so a start without network serves it.
    func payload(source: String) throws -> StoredPayload?

    /// Replaces the last good payload of a remote source.
    func setPayload(_ payload: StoredPayload, source: String) throws

    /// A remote source's sticky-bucket documents (GrowthBook's), as JSON
    /// text by their key (`attribute||value`).
    func stickyBuckets(source: String) throws -> [String: String]

    /// Stores these sticky-bucket documents, replacing those with the same
    /// keys; the source's other documents stay.
    func setStickyBuckets(_ documents: [String: String], source: String) throws

    /// Attributes (such as `userId`) stored by an overrides import, used where
    /// the command line gives none.
    func attributeOverrides() throws -> [String: String]

    /// Replaces the stored attribute overrides.
    func setAttributeOverrides(_ attributes: [String: String]) throws

    /// Replaces the set of assignments last seen active (`assignments` holds at
    /// most one per source, experiment and key) and returns what entered and
    /// what left it, so that only one process reports a change.
    func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange

    /// How each app that opened the file is wired, sorted by app.
    func appWirings() throws -> [AppWiring]

    /// Records how an app is wired, replacing what that app recorded before.
    func recordAppWiring(_ wiring: AppWiring) throws

    /// A number that changes whenever the state changes, in any process.
    func revision() throws -> Int64

    /// Announces every change: at once for one made through this store,
    /// soon after one made by another process (the SQLite store: within
    /// 50 ms, while anybody listens); an announcement for nothing is allowed,
    /// a change without one is not, and watchers then compare ``revision()``.
    /// `nil` for a store that cannot tell: watchers read ``revision()`` on a timer.
    var changeSignal: ChangeSignal? { get }
}

extension StateStore {
    /// A store that cannot tell when it changes.
    public var changeSignal: ChangeSignal? { nil }

    /// Marks the source stabilized; a source with no payload of its own keeps none.
    public func stabilize(source: String, at time: Date) throws {
        try stabilize(source: source, at: time, keeping: nil)
    }
}
