import Foundation
import Laboratory
import LaboratoryRuntime
import NIOCore
import Synchronization

/// Keeps what `lab serve` answers current and tells every open stream when it
/// changes: a force in the console, `lab force` in another shell, an update.
///
/// ``watch(every:catalogInterval:ping:)`` reads the state file's revision
/// when its store signals a change (as the manager and the console do) and
/// rebuilds the ``ServedState`` only when it moved, so requests never
/// evaluate anything.
package final class ServedStateHub: Sendable {
    let laboratory: LocalLaboratory
    private let debug: DebugSource
    private let served: Mutex<ServedState>
    /// The revision the first build was made from, where ``watch`` starts.
    private let firstBuiltRevision: Int64
    /// The `/sub/…` streams: only the newest payload waits for a slow reader.
    private let streams = StreamFanOut(keepingNewest: 1)
    /// The steering API's change streams: state changes and new events.
    private let changeStreams = StreamFanOut(keepingNewest: 2)
    /// Forces, unforces, resets and imports for the steering API.
    let steering: Steering
    private let activity = Mutex(Activity())

    /// What goes down a `/sub/…` stream: a new payload (its `features`
    /// event, shared by every stream), or a keep-alive comment.
    package enum StreamMessage: Sendable {
        case payload(ByteBuffer)
        case ping
    }

    /// Traffic, for the status line: open streams, recent requests, the last client.
    package struct Activity: Sendable {
        package var lastClient: String?
        /// The `/sub/…` streams open when the summary was read.
        package var openStreams = 0
        /// Requests per second over the last minute, a ring indexed by the second.
        private var perSecond = [Int](repeating: 0, count: 60)
        private var newestSecond = 0

        /// Requests in the last 60 seconds.
        package var requestsLastMinute: Int { perSecond.reduce(0, +) }

        mutating func count(at time: Date) {
            advance(to: time)
            perSecond[newestSecond % 60] += 1
        }

        /// Forgets the seconds that left the window; constant time per request.
        mutating func advance(to time: Date) {
            let second = Int(max(0, min(time.timeIntervalSince1970, 1e12)))
            if second - newestSecond >= 60 {
                perSecond = [Int](repeating: 0, count: 60)
            } else if second > newestSecond {
                for passed in (newestSecond + 1)...second { perSecond[passed % 60] = 0 }
            }
            newestSecond = max(newestSecond, second)
        }
    }

    private let catalogs: CatalogWatcher
    /// Gets a line for each problem the hub meets while it watches (a catalog that no longer loads).
    private let report: @Sendable (String) -> Void

    /// Serves `laboratory`, which must have a debug source: serving forced
    /// variants to other apps is what the hub is for.
    package init(laboratory: LocalLaboratory, report: @escaping @Sendable (String) -> Void = { _ in }) throws {
        guard let debug = laboratory.debug, let steering = laboratory.steering else { throw NoDebugSource() }
        self.laboratory = laboratory
        self.steering = steering
        self.debug = debug
        self.report = report
        catalogs = CatalogWatcher(laboratory: laboratory)
        let (first, revision) = try Self.build(laboratory, debug: debug, previous: nil)
        served = Mutex(first)
        firstBuiltRevision = revision
    }

    /// The error of a hub over a wiring without a debug source.
    package struct NoDebugSource: Error, CustomStringConvertible {
        package var description: String {
            "serving needs a wiring with a debug source (LocalLaboratory(debugSource: true))"
        }
    }

    /// What is served now.
    package var current: ServedState { served.withLock { $0 } }

    /// Rebuilds from the state file now; streams hear of a changed payload
    /// or changed answers for this device. Returns the revision of the state
    /// it was built from (``AssignmentsManager/refreshSeeingRevision()``).
    @discardableResult
    package func rebuild() throws -> Int64 {
        let (next, revision) = try Self.build(laboratory, debug: debug, previous: current)
        let changed = served.withLock { state in
            defer { state = next }
            return state.payloadTag != next.payloadTag || state.flagsTag != next.flagsTag
        }
        if changed { streams.broadcast(.payload(next.featuresEvent)) }
        return revision
    }

    private static func build(
        _ laboratory: LocalLaboratory,
        debug: DebugSource,
        previous: ServedState?
    ) throws -> (ServedState, revision: Int64) {
        // The refresh evaluates every source (through the debug source's
        // entries); what follows reads that evaluation, never a second one.
        // What it reads after the refresh is as new as the refresh's revision
        // or newer: a commit past that revision makes another rebuild anyway.
        let (snapshot, revision) = try laboratory.manager.refreshSeeingRevision()
        let forced = try laboratory.store.forcedVariants()
        let state = ServedState(
            entries: try debug.latestEntries ?? debug.entries(),
            snapshot: snapshot,
            shared: debug.leaves.compactMap { $0.sharing?.sharedFeatures(forcing: forced) },
            previous: previous
        )
        return (state, revision)
    }

    /// Rebuilds whenever the state file changes (the store's change signal
    /// says so: this process's writes at once, others' within 50 ms; only
    /// then is the file read) or a catalog file is edited (looked at every
    /// `catalogInterval`), until the task is cancelled; pings every stream
    /// every `ping` so proxies keep it open.
    package func watch(
        every interval: Duration = .milliseconds(50),
        catalogInterval: Duration = .milliseconds(250),
        ping: Duration = .seconds(20)
    ) async {
        let clock = ContinuousClock()
        var lastPing = clock.now
        var lastCatalogLook = clock.now
        // The hub's own record of the revision: the manager may have refreshed
        // for someone else (an update of a remote source) since it last built.
        var built = firstBuiltRevision
        var newestEvent = try? await fileQueue.perform { try self.laboratory.store.latestEvents(limit: 1).first?.id }
        // Listening keeps the store watching for other processes' commits; the count says when one came.
        let signal = laboratory.store.signal
        let listening = signal.stream()
        defer { withExtendedLifetime(listening) {} }
        var heard = -1
        while !Task.isCancelled {
            var stale = false
            if clock.now - lastCatalogLook >= catalogInterval {
                lastCatalogLook = clock.now
                let (reloaded, problems) = await catalogs.reloadChanged()
                problems.forEach(report)
                stale = reloaded > 0
            }
            let count = signal.count
            let changed = count != heard
            heard = count
            if changed || stale,
                let revision = try? await fileQueue.perform({ try self.laboratory.store.revision() }),
                revision != built || stale
            {
                do {
                    // The manager's revision, never one read after the rebuild: that may hold a commit another
                    // process made while it ran, which it never saw (a force lost until the next one). Its
                    // refresh's own write of the active set it counts as seen, so that needs no second rebuild.
                    built = try await fileQueue.perform { try self.rebuild() }
                } catch {
                    report("cannot read \(laboratory.store.path): \(error); still serving what it said before")
                    built = revision
                }
                changeStreams.broadcast(Self.changeEvent("state", ["revision": built]))
            }
            // New events matter only to the steering API's change streams: looked for while one is open.
            if changed, changeStreams.count > 0,
                let newest = try? await fileQueue.perform({
                    try self.laboratory.store.latestEvents(limit: 1).first?.id
                }), newest != newestEvent
            {
                newestEvent = newest
                changeStreams.broadcast(Self.changeEvent("events", ["newest": newest]))
            }
            if clock.now - lastPing >= ping {
                streams.broadcast(.ping)
                changeStreams.broadcast(.ping)
                lastPing = clock.now
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Where the watch reads the state file and rebuilds: a rebuild may wait
    /// for another process's write lock (its refresh records the active set),
    /// and must not hold one of the few pool threads that answer requests.
    /// The watch awaits each piece, so one waits at most.
    private let fileQueue = StateFileQueue(label: "state-file", capacity: 1)

    /// A stream of what to send one `/sub/…` client; only the newest payload
    /// waits for a client that reads slowly, so none can make the server hoard.
    func subscribe() -> StreamFanOut.Subscription {
        streams.subscribe()
    }

    /// A stream of the steering API's changes: a `state` event when the
    /// state file changes (a force from anyone, an update), an `events`
    /// event when new events arrive; only the newest waits for a slow reader.
    func subscribeToChanges() -> StreamFanOut.Subscription {
        changeStreams.subscribe()
    }

    private static func changeEvent(_ name: String, _ data: [String: Int64]) -> StreamMessage {
        let members = data.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
        return .payload(ByteBuffer(string: "event: \(name)\ndata: {\(members.joined(separator: ","))}\n\n"))
    }

    /// Notes a request from `client` (its address), for ``activity``.
    func noteRequest(from client: String?, at time: Date = Date()) {
        activity.withLock { activity in
            activity.count(at: time)
            if let client { activity.lastClient = client }
        }
    }

    /// Open streams, requests in the last minute and the last client seen.
    package var activitySummary: Activity {
        let open = streams.count
        return activity.withLock { activity in
            activity.advance(to: Date())
            activity.openStreams = open
            return activity
        }
    }

    /// Records exposures that an app posted, all of them or none.
    /// - Returns: how many rows were added (`displayed` counts once per device and variant).
    func record(_ events: [Event]) throws -> Int {
        try laboratory.store.recordAll(events)
    }

    /// This state file's device id, for events posted without one.
    var deviceID: String { laboratory.device.id }

    /// Where steering reads and writes the state file: off the threads that answer requests.
    let steeringQueue = StateFileQueue(label: "steering", capacity: 32)
}
