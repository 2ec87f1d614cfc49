import Foundation
import Synchronization

/// Merges the active variants of its sources into the assignments the app uses.
///
/// The app asks for a key (`manager.value(for: "subscribeScreenFontColor")`);
/// `nil` means no active experiment assigns it and the app uses its baseline.
/// The manager resolves experiments that share a key (see
/// ``ConflictResolver``), records `activated` / `deactivated` events when
/// assignments enter or leave the active set, and turns reports into events.
///
/// It never blocks start-up on a fetch: it serves what the sources loaded
/// (catalogs, last good payloads) at once, and ``update(only:)`` fetches later.
public final class AssignmentsManager: Sendable {
    /// The sources, in priority order.
    public let sources: [any ExperimentSource]
    /// The device the manager assigns for.
    public let device: Device
    private let store: any ActiveSetStore
    private let events: any EventSink
    private let clock: any WallClock

    private struct State {
        var snapshot = AssignmentsSnapshot()
        var statuses: [String: SourceStatus] = [:]
        var observers: [UUID: AsyncStream<AssignmentsSnapshot>.Continuation] = [:]
        var seenRevision: Int64?
        /// The active set this process last stored (sorted), and the revision
        /// after it; `nil` when another commit came with it, so the store may hold another set.
        var stored: (revision: Int64, assignments: [Assignment])?
        /// The forced variants of the last refresh, by source and experiment,
        /// with their variant and tester: a deactivation says whether what
        /// left was forced, which the new set no longer knows.
        var forced: [ExperimentID: (variant: String, tester: String?)] = [:]
    }

    private let state = Mutex(State())

    /// A manager over `sources`, in priority order (an earlier source wins a conflict over a later one when neither is forced), recording the active set in `store` and events in `events`.
    public init(
        sources: [any ExperimentSource],
        store: any ActiveSetStore,
        events: any EventSink,
        device: Device,
        clock: any WallClock = SystemClock()
    ) {
        self.sources = sources
        self.store = store
        self.events = events
        self.device = device
        self.clock = clock
        state.withLock { state in
            for leaf in sources.flatMap(\.leaves) { state.statuses[leaf.name] = .idle }
        }
    }

    deinit {
        for observer in state.withLock({ $0 }).observers.values { observer.finish() }
    }

    // MARK: - Reading

    /// The assignments as of the last ``refresh()``.
    public var snapshot: AssignmentsSnapshot { state.withLock({ $0 }).snapshot }

    /// The active assignments, sorted by key.
    public var assignments: [Assignment] { snapshot.assignments }

    /// The value for `key`, or `nil` when the app should use its baseline.
    public func value(for key: String) -> AssignmentValue? {
        snapshot.assignment(for: key)?.value
    }

    /// The assignment for `key`, or `nil` when no active experiment assigns it.
    public func assignment(for key: String) -> Assignment? {
        snapshot.assignment(for: key)
    }

    /// How the last fetch of each source went, by source name.
    public var statuses: [String: SourceStatus] { state.withLock({ $0 }).statuses }

    /// Snapshots as they change: assignments, conflicts or fetch statuses.
    ///
    /// The stream starts with the current snapshot.
    public func changes() -> AsyncStream<AssignmentsSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: AssignmentsSnapshot.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        let id = UUID()
        state.withLock { state in
            state.observers[id] = continuation
            continuation.yield(state.snapshot)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: - Computing

    /// Every accepted variant's assignments, sorted by key: made in one array
    /// of the right size and sorted there, since at 20,000 keys a growing array
    /// and a sorted copy of it were megabytes at the peak of a console's start.
    private static func sortedAssignments(of accepted: [ActiveVariant]) -> [Assignment] {
        var assignments: [Assignment] = []
        assignments.reserveCapacity(accepted.reduce(0) { $0 + $1.variant.assignments.count })
        for active in accepted { assignments += active.assignments }
        assignments.sort { $0.key < $1.key }
        return assignments
    }

    /// Asks the sources again and recomputes the active assignments.
    ///
    /// Records `activated` and `deactivated` events for what changed since the
    /// state last recorded an active set, in this process or another.
    @discardableResult
    public func refresh() throws -> AssignmentsSnapshot {
        try refreshSeeingRevision().snapshot
    }

    /// ``refresh()``, and the revision of the state the snapshot was made
    /// from: a caller that serves it (`lab serve`) rebuilds again when the
    /// revision moves past it, and a commit made meanwhile is never taken as seen.
    package func refreshSeeingRevision() throws -> (snapshot: AssignmentsSnapshot, revision: Int64) {
        // The revision before the sources are read is the one this refresh
        // has seen: a commit while they are read (another process forcing a
        // variant) may be missing from what they gave, so it must still read
        // as new to `refreshIfStateChanged`. One read after would have hidden it.
        let seen = try store.revision()
        // One source (the debug source, in every wiring that has one) is not copied into a new list.
        let candidates =
            sources.count == 1 ? try sources[0].activeVariants() : try sources.flatMap { try $0.activeVariants() }
        let order = sources.flatMap(\.leaves).map(\.name) + sources.map(\.name)
        let (accepted, conflicts) = ConflictResolver.resolve(candidates, sourceOrder: order)
        let previous = state.withLock { $0.snapshot }
        let patched = Self.assignments(of: accepted, patching: previous)
        let assignments = patched?.assignments ?? Self.sortedAssignments(of: accepted)
        // What a patch wrote over is a change, known without comparing 20,000 assignments.
        let knownChanged = patched?.changed ?? false
        let snapshot = AssignmentsSnapshot(
            assignments: assignments,
            active: accepted,
            conflicts: conflicts,
            reusingIndexOf: previous
        )

        var forcedNow: [ExperimentID: (variant: String, tester: String?)] = [:]
        for active in accepted where active.forced {
            forcedNow[active.experimentID] = (
                active.variant.name, active.forcedBy
            )
        }
        var seenNow = seen
        // Swap only when the set changed here or someone wrote since our last swap.
        let stored = state.withLock { $0.stored }
        if stored?.revision != seen || knownChanged || stored?.assignments != assignments {
            let change = try store.swapActiveAssignments(assignments)
            let now = clock.now()
            // A change to or from a forced variant is QA's doing, not the experiment's: whose, when it says.
            // What entered was forced if it is forced now; what left, if it was forced when it was active.
            let before = state.withLock { $0.forced }
            func event(_ assignment: Assignment, _ reason: EventReason) throws -> Event {
                let key = assignment.experimentID
                let forced: (variant: String, tester: String?)?
                if reason == .deactivated {
                    forced = try before[key] ?? activation(of: assignment)
                } else {
                    forced = forcedNow[key]
                }
                let applies = forced.map { $0.variant == assignment.variant } ?? false
                return Event(
                    assignment,
                    reason: reason,
                    device: device.id,
                    time: now,
                    forced: applies,
                    tester: applies ? forced?.tester : nil
                )
            }
            let changes =
                try change.left.map { try event($0, .deactivated) } + change.entered.map { try event($0, .activated) }
            if !changes.isEmpty { try events.record(changes) }
            let revision = try store.revision()
            // A swap that changes the set commits once (``ActiveSetStore``):
            // when that is the only commit since `seen`, it is this refresh's
            // own and seen too; any other leaves `seen`, for one more refresh.
            let onlyOwnCommit = revision == seen + (change.isEmpty ? 0 : 1)
            if onlyOwnCommit { seenNow = revision }
            // Another commit may be another process swapping in its own set
            // after this one: `revision` then does not say the store holds
            // `assignments`, and the next refresh swaps again (a swap of the
            // set the store holds commits nothing). Kept with `revision`, it
            // read as this set stored, and the next refresh left theirs.
            state.withLock { $0.stored = onlyOwnCommit ? (revision, assignments) : nil }
        }
        state.withLock { $0.forced = forcedNow }

        publish { state in
            state.seenRevision = seenNow
            guard knownChanged || state.snapshot != snapshot else { return false }
            state.snapshot = snapshot
            return true
        }
        return (snapshot, seenNow)
    }

    /// The accepted experiments' assignments, sorted by key, made from
    /// `previous`'s: when the same experiments are accepted (in any order:
    /// a forced one moves ahead) and each whose variant changed assigns the
    /// keys it assigned before, those keys are written over and nothing is
    /// gathered or sorted (a force among 10,000 experiments), and whether
    /// any was. `nil` otherwise.
    private static func assignments(
        of accepted: [ActiveVariant],
        patching previous: AssignmentsSnapshot
    ) -> (assignments: [Assignment], changed: Bool)? {
        let before = previous.active
        // A different number accepted (the first refresh too) is a different set: nothing to pair.
        guard accepted.count == before.count else { return nil }
        // Read in place, by index: iterating would copy every active variant.
        let paired = IdentityPairing.pair(
            oldCount: before.count,
            newCount: accepted.count,
            old: { before[$0].experimentID },
            new: { accepted[$0].experimentID }
        )
        guard paired.oldOnly.isEmpty, paired.newOnly.isEmpty else { return nil }
        var assignments = previous.assignments
        var changed = false
        for (old, new) in paired.pairs {
            guard accepted[new].experiment == before[old].experiment else { return nil }
            if accepted[new].runsSameVariant(as: before[old]) { continue }
            let written = accepted[new].assignments
            guard written.count == before[old].variant.assignments.count else { return nil }
            for assignment in written {
                guard let position = previous.position(of: assignment.key),
                    assignments[position].source == assignment.source,
                    assignments[position].experiment == assignment.experiment
                else { return nil }
                assignments[position] = assignment
                changed = true
            }
        }
        return (assignments, changed)
    }

    /// Whether an assignment that another process (or an earlier run)
    /// activated was forced then, as its `activated` event says.
    private func activation(of assignment: Assignment) throws -> (variant: String, tester: String?)? {
        guard let event = try events.latestActivation(of: assignment, device: device.id), event.forced else {
            return nil
        }
        return (event.variant, event.tester)
    }

    /// Refreshes only if the state changed since the last refresh (in any process).
    /// - Returns: whether it refreshed.
    @discardableResult
    public func refreshIfStateChanged() throws -> Bool {
        let revision = try store.revision()
        guard revision != state.withLock({ $0 }).seenRevision else { return false }
        try refresh()
        return true
    }

    /// Watches the state for changes made by other processes (a console
    /// forcing a variant) and refreshes as the store announces them (the
    /// SQLite store within 50 ms); a store that cannot tell is read every
    /// `interval`. Runs until cancelled.
    public func watch(every interval: Duration = .milliseconds(500)) async {
        _ = try? refreshIfStateChanged()
        if let signal = store.changeSignal {
            for await _ in signal.stream() { _ = try? refreshIfStateChanged() }
            return
        }
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            _ = try? refreshIfStateChanged()
        }
    }

    /// Fetches every source again (or only those named), all at once, then refreshes.
    ///
    /// A failing source keeps its last good data; its error is in ``statuses``
    /// and in the result.
    @discardableResult
    public func update(only names: Set<String>? = nil) async -> [String: SourceStatus] {
        let leaves = sources.flatMap(\.leaves).filter { names?.contains($0.name) ?? true }
        publish { state in
            for leaf in leaves { state.statuses[leaf.name] = .updating }
            return true
        }
        let clock = self.clock
        let results = await withTaskGroup(of: (String, SourceStatus).self) { group in
            for leaf in leaves {
                group.addTask {
                    do {
                        try await leaf.update()
                        return (leaf.name, .ok(clock.now()))
                    } catch {
                        return (leaf.name, .error(String(describing: error), at: clock.now()))
                    }
                }
            }
            var results: [String: SourceStatus] = [:]
            for await (name, status) in group { results[name] = status }
            return results
        }
        publish { state in
            state.statuses.merge(results) { _, new in new }
            return true
        }
        _ = try? refresh()
        return results
    }

    /// Stabilizes every source: from now on assignments do not change on this device.
    public func stabilize() throws {
        for source in sources { try source.stabilize() }
        try refresh()
    }

    // MARK: - Reporting

    /// Reports that an assignment affected the user.
    ///
    /// A `displayed` report is recorded once per device, experiment and
    /// variant; later ones are dropped. Other reasons are recorded every time.
    /// - Returns: whether an event was recorded.
    @discardableResult
    public func report(_ assignment: Assignment, reason: EventReason = .displayed) throws -> Bool {
        let forced = snapshot.active.first {
            $0.forced && $0.source == assignment.source && $0.experiment.name == assignment.experiment
        }
        let event = Event(
            assignment,
            reason: reason,
            device: device.id,
            time: clock.now(),
            forced: forced != nil,
            tester: forced?.forcedBy
        )
        if reason == .displayed { return try events.recordOnce(event) }
        try events.record([event])
        return true
    }

    /// Reports the active assignment of `key`.
    /// - Returns: whether an event was recorded; `false` also when the key is not active.
    @discardableResult
    public func report(key: String, reason: EventReason = .displayed) throws -> Bool {
        guard let assignment = assignment(for: key) else { return false }
        return try report(assignment, reason: reason)
    }

    // MARK: - Observers

    private func publish(_ change: (inout State) -> Bool) {
        state.withLock { state in
            guard change(&state) else { return }
            for observer in state.observers.values { observer.yield(state.snapshot) }
        }
    }
}
