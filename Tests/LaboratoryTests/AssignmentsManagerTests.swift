import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct AssignmentsManagerTests {
    @Test func mergesTheActiveVariantsOfEverySource() throws {
        let first = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let second = Catalog(source: "Promo", experiments: [Fixtures.experiment("P", keys: ["size"])])
        let world = try World([first, second])
        try world.manager.refresh()
        #expect(world.manager.assignments.map(\.key) == ["color", "size"])
        #expect(world.manager.assignment(for: "size")?.source == "Promo")
        #expect(world.manager.value(for: "missing") == nil)
    }

    @Test func aConflictIsResolvedBySourceOrderThenNameAndReported() throws {
        let first = Catalog(
            source: "Local",
            experiments: [
                Fixtures.experiment("Zeta", keys: ["color"]),
                Fixtures.experiment("Alpha", keys: ["color", "size"]),
            ]
        )
        let second = Catalog(source: "Promo", experiments: [Fixtures.experiment("Aardvark", keys: ["size"])])
        let world = try World([first, second])
        let snapshot = try world.manager.refresh()
        // Alpha sorts before Zeta in the first source: it wins both keys;
        // Promo comes later, so its experiment loses despite its name.
        #expect(snapshot.assignments.map(\.experiment) == ["Alpha", "Alpha"])
        #expect(
            snapshot.conflicts.map(\.description) == [
                "Local/Zeta shares color with Local/Alpha, which wins",
                "Promo/Aardvark shares size with Local/Alpha, which wins",
            ]
        )
        #expect(snapshot.conflicts(involving: "Local", "Alpha").count == 2)
    }

    @Test func aForcedExperimentWinsAConflict() throws {
        let catalog = Catalog(
            source: "Local",
            experiments: [
                Fixtures.experiment("Alpha"), Fixtures.experiment("Beta"),
            ]
        )
        let world = try World([catalog])
        try world.debug.force(variant: "Blue", of: "Beta")
        let snapshot = try world.manager.refresh()
        #expect(snapshot.assignment(for: "color")?.experiment == "Beta")
        #expect(snapshot.conflicts.first?.loser.experiment == "Alpha")
        #expect(snapshot.conflicts.first?.winner.forced == true)
    }

    @Test func experimentsInDisjointRangesShareAKeyWithoutConflict() throws {
        let catalog = Catalog(
            source: "Local",
            experiments: [
                Fixtures.experiment("Low", range: HalfOpenRange(lower: 0, upper: 0.5)),
                Fixtures.experiment("High", range: HalfOpenRange(lower: 0.5, upper: 1)),
            ]
        )
        for token in [0.2, 0.7] {
            let snapshot = try World([catalog], token: token).manager.refresh()
            #expect(snapshot.conflicts.isEmpty)
            #expect(snapshot.assignment(for: "color")?.experiment == (token < 0.5 ? "Low" : "High"))
        }
    }

    @Test func recordsActivatedAndDeactivatedEventsOnlyForChanges() throws {
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let world = try World([catalog])
        try world.manager.refresh()
        try world.manager.refresh()
        #expect(world.events.events.map(\.reason) == [.activated])
        #expect(world.events.events[0].value == "Red-color")
        #expect(world.events.events[0].device == "device-1")

        try world.debug.force(variant: "Blue", of: "E")
        try world.manager.refresh()
        let tail = world.events.events.dropFirst().map { "\($0.reason) \($0.variant)" }
        #expect(tail == ["deactivated Red", "activated Blue"])
    }

    @Test func aDeactivationIsForcedExactlyWhenWhatLeftWasForced() throws {
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let world = try World([catalog])
        try world.manager.refresh()
        // A drawn Red deactivated by forcing Blue: Red was drawn, so its deactivation is experiment data.
        try world.debug.force(variant: "Blue", of: "E", tester: "ana")
        try world.manager.refresh()
        // A forced Blue deactivated by forcing Inactive: Blue was forced, by ana.
        try world.debug.forceInactive(experiment: "E", tester: "ben")
        try world.manager.refresh()
        let rows = world.events.events.map { "\($0.reason) \($0.variant) \($0.forced) \($0.tester ?? "-")" }
        #expect(
            rows == [
                "activated Red false -", "deactivated Red false -", "activated Blue true ana",
                "deactivated Blue true ana",
            ]
        )
    }

    @Test func aDeactivationSeenByAnotherProcessReadsTheActivation() throws {
        let store = InMemoryStateStore()
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let first = try World([catalog], store: store)
        try first.manager.refresh()
        try first.debug.force(variant: "Blue", of: "E", tester: "ana")
        try first.manager.refresh()
        // A new process, sharing the log, sees Blue leave; it never saw it forced itself.
        let second = AssignmentsManager(
            sources: [first.debug],
            store: store,
            events: first.events,
            device: first.device,
            clock: first.clock
        )
        try first.debug.forceInactive(experiment: "E", tester: "ben")
        try second.refresh()
        let last = try #require(first.events.events.last)
        #expect("\(last.reason) \(last.variant) \(last.forced) \(last.tester ?? "-")" == "deactivated Blue true ana")
    }

    @Test func displayedIsRecordedOncePerDeviceExperimentAndVariant() throws {
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E", keys: ["color", "size"])])
        let world = try World([catalog])
        try world.manager.refresh()
        #expect(try world.manager.report(key: "color", reason: .displayed))
        #expect(try !world.manager.report(key: "color", reason: .displayed))
        #expect(try !world.manager.report(key: "size", reason: .displayed))
        // Another variant is another exposure.
        try world.debug.force(variant: "Blue", of: "E")
        try world.manager.refresh()
        #expect(try world.manager.report(key: "color", reason: .displayed))
        #expect(world.events.events.filter { $0.reason == .displayed }.map(\.variant) == ["Red", "Blue"])
    }

    @Test func otherReasonsAreRecordedEveryTime() throws {
        let world = try World([Catalog(source: "Local", experiments: [Fixtures.experiment("E")])])
        try world.manager.refresh()
        for _ in 0..<3 { #expect(try world.manager.report(key: "color", reason: .initiated)) }
        #expect(try world.manager.report(key: "color", reason: "purchased"))
        #expect(world.events.events.filter { $0.reason == .initiated }.count == 3)
        #expect(world.events.events.last?.reason.rawValue == "purchased")
    }

    @Test func reportingAnInactiveKeyRecordsNothing() throws {
        let world = try World([Catalog(source: "Local", experiments: [Fixtures.experiment("E")])])
        try world.manager.refresh()
        #expect(try !world.manager.report(key: "nothing", reason: .initiated))
    }

    @Test func observersSeeChanges() async throws {
        let world = try World([Catalog(source: "Local", experiments: [Fixtures.experiment("E")])])
        try world.manager.refresh()
        var changes = world.manager.changes().makeAsyncIterator()
        #expect(await changes.next()?.assignment(for: "color")?.variant == "Red")
        try world.debug.force(variant: "Blue", of: "E")
        try world.manager.refresh()
        #expect(await changes.next()?.assignment(for: "color")?.variant == "Blue")
    }

    @Test func refreshIfStateChangedSeesAnotherProcessesRequest() throws {
        let store = InMemoryStateStore()
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let app = try World([catalog], store: store)
        let console = try World([catalog], store: store)
        try app.manager.refresh()
        // The draw the first refresh committed while it read its sources is
        // not told from another process's commit: it reads as new once.
        #expect(try app.manager.refreshIfStateChanged())
        #expect(try !app.manager.refreshIfStateChanged())
        try console.debug.force(variant: "Blue", of: "E")
        #expect(try app.manager.refreshIfStateChanged())
        #expect(app.manager.value(for: "color") == "Blue-color")
    }

    /// A force another process commits while the app's sources are read
    /// may be missing from what they gave: the next check still sees it as
    /// new, and the refresh it makes applies it.
    @Test func aForceCommittedWhileTheSourcesAreReadIsNotLost() throws {
        let store = InMemoryStateStore()
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let app = try World([catalog], store: store)
        let console = try World([catalog], store: store)
        let interloper = InterleavingSource { try console.debug.force(variant: "Blue", of: "E") }
        let manager = AssignmentsManager(
            sources: [app.debug, interloper],
            store: store,
            events: app.events,
            device: app.device,
            clock: app.clock
        )
        try manager.refresh()
        #expect(interloper.ran)
        #expect(manager.value(for: "color") == "Red-color")
        #expect(try manager.refreshIfStateChanged())
        #expect(manager.value(for: "color") == "Blue-color")
        // Its own swap's commit is seen: nothing more to refresh.
        #expect(try !manager.refreshIfStateChanged())
    }

    @Test func aSetAnotherProcessSwapsInJustAfterTheManagersIsSwappedBack() throws {
        let store = InMemoryStateStore()
        let catalog = Catalog(source: "Local", experiments: [Fixtures.experiment("E")])
        let app = try World([catalog], store: store)
        // Another process with a stale view (no experiments) swaps its set in
        // between the manager's swap and its read of the revision.
        let events = InterleavingEventSink(app.events) { _ = try store.swapActiveAssignments([]) }
        let manager = AssignmentsManager(
            sources: [app.debug],
            store: store,
            events: events,
            device: app.device,
            clock: app.clock
        )
        try manager.refresh()
        #expect(events.ran)
        let assignments = manager.snapshot.assignments
        #expect(!assignments.isEmpty)
        #expect(try manager.refreshIfStateChanged())
        // The store holds this process's set again: swapping it in changes nothing.
        #expect(try store.swapActiveAssignments(assignments).isEmpty)
        #expect(try !manager.refreshIfStateChanged())
    }

    @Test func statusesStartIdle() throws {
        let world = try World([Catalog(source: "Local", experiments: [])])
        #expect(world.manager.statuses == ["Local": .idle])
        #expect(SourceStatus.idle.summary == "idle")
        #expect(SourceStatus.error("timeout", at: Date()).summary == "error: timeout")
    }
}

/// A source with no experiments that, the first time the manager reads it,
/// runs `interleaved` (read after the sources before it): another process's
/// commit landing while a refresh reads its sources.
private final class InterleavingSource: ExperimentSource, @unchecked Sendable {
    let name = "Interleaving"
    let experiments: [Experiment] = []
    private let interleaved: () throws -> Void
    private let lock = NSLock()
    private var hasRun = false

    init(_ interleaved: @escaping () throws -> Void) {
        self.interleaved = interleaved
    }

    /// Whether `interleaved` ran.
    var ran: Bool { lock.withLock { hasRun } }

    func activeVariants() throws -> [ActiveVariant] {
        let first = lock.withLock {
            defer { hasRun = true }
            return !hasRun
        }
        if first { try interleaved() }
        return []
    }

    func update() async throws {}
    func stabilize() throws {}
    func stabilization() throws -> Date? { nil }
}

/// An event sink that, the first time events are recorded (right after the
/// manager's swap of the active set), records them and then runs
/// `interleaved`: another process's commit landing before the manager reads
/// the revision its swap left.
private final class InterleavingEventSink: EventSink, @unchecked Sendable {
    private let sink: any EventSink
    private let interleaved: () throws -> Void
    private let lock = NSLock()
    private var hasRun = false

    init(_ sink: any EventSink, _ interleaved: @escaping () throws -> Void) {
        self.sink = sink
        self.interleaved = interleaved
    }

    /// Whether `interleaved` ran.
    var ran: Bool { lock.withLock { hasRun } }

    func record(_ events: [Event]) throws {
        try sink.record(events)
        let first = lock.withLock {
            defer { hasRun = true }
            return !hasRun
        }
        if first { try interleaved() }
    }

    func recordOnce(_ event: Event) throws -> Bool { try sink.recordOnce(event) }

    func latestActivation(of assignment: Assignment, device: String) throws -> Event? {
        try sink.latestActivation(of: assignment, device: device)
    }
}
