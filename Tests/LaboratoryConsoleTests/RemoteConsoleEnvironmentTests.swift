import Foundation
import Laboratory
import LaboratoryTesting
import Synchronization
import Testing

@testable import LaboratoryConsole

/// The console connected to a server: what it shows is what a console on
/// the server's state file shows, its changes go through the steering
/// service with its scope, and a lost connection keeps the last good screen.
@Suite struct RemoteConsoleEnvironmentTests {
    /// The steering API without the network: the same service and snapshot
    /// the server answers from, over the world's framework.
    final class InProcessConnection: SteeringConnection {
        let manager: AssignmentsManager
        let debug: DebugSource
        let store: InMemoryStateStore
        let events: InMemoryEventSink
        let steering: Steering
        let failing = Mutex(false)
        var address: String { "http://staging.test:3100" }

        init(_ world: ConsoleWorld) {
            (manager, debug, store, events) = (world.manager, world.debug, world.store, world.events)
            steering = Steering(debug: world.debug, manager: world.manager, store: world.store, clock: ManualClock())
        }

        struct Unreachable: Error, CustomStringConvertible {
            var description: String { "cannot reach http://staging.test:3100" }
        }

        func snapshot(scope: Scope, events limit: Int) throws -> SteeringSnapshot {
            if failing.withLock({ $0 }) { throw Unreachable() }
            return try SteeringSnapshot.read(
                manager: manager,
                debug: debug,
                store: store,
                log: events,
                eventLimit: limit,
                scope: scope
            )
        }

        func force(
            _ variant: String,
            of experiment: String,
            in source: String?,
            scope: Scope
        ) throws -> Steering.Outcome {
            try steering.force(variant, of: experiment, in: source, scope: scope, tester: "bo")
        }

        func unforce(_ experiment: String, in source: String?, scope: Scope) throws -> Steering.Outcome {
            try steering.unforce(experiment, in: source, scope: scope)
        }

        func reset(source: String?, scope: Scope?) throws -> Steering.Outcome {
            try steering.reset(source: source, scope: scope)
        }

        func exportOverrides() throws -> OverridesFile { try steering.exportOverrides() }

        func setAttribute(_ name: String, to value: String?) throws -> Steering.Outcome {
            try steering.setAttribute(name, to: value)
        }

        func importOverrides(_ data: Data, replacing: Bool) throws -> Steering.Outcome {
            try steering.importOverrides(
                try OverridesFile(decoding: data, file: "posted"),
                replacing: replacing,
                tester: "bo",
                from: "posted"
            )
        }
    }

    @Test func aConnectedConsoleShowsWhatTheLocalOneShows() throws {
        let world = try ConsoleWorld.demo()
        let remote = RemoteConsoleEnvironment(
            connection: InProcessConnection(world),
            monitor: ChangeMonitor(),
            files: .disk
        )
        let local = try world.environment.load()
        let connected = try remote.load()
        #expect(connected.entries == local.entries)
        #expect(connected.snapshot == local.snapshot)
        #expect(connected.sources.map(\.name) == local.sources.map(\.name))
        #expect(connected.origin == "http://staging.test:3100")
    }

    @Test func itsChangesCarryItsScopeAndTheServerRecordsTheTester() async throws {
        let world = try ConsoleWorld.demo()
        let phone = Scope(attributes: ["id": "qa-phone-7"])
        let remote = RemoteConsoleEnvironment(
            connection: InProcessConnection(world),
            monitor: ChangeMonitor(),
            scope: phone,
            files: .disk
        )
        let message = try await remote.perform(
            .force(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")
        )
        #expect(message == "Forced ButtonColor to ButtonColorBlue for id=qa-phone-7.")
        let forced = try world.store.forcedVariants()
        #expect(forced.map(\.scope) == [phone] && forced.map(\.tester) == ["bo"])
        // Its screens match the scope's users: the scoped forced variant decides there.
        let entry = try #require(try remote.load().entry(source: "Local", experiment: "ButtonColor"))
        #expect(entry.isForced && entry.effective?.variant.name == "ButtonColorBlue")
        // A scoped console's reset drops its scope's forced variants only.
        try world.store.setForcedVariant(ForcedVariant(source: "Local", experiment: "ProfileRedesign", variant: nil))
        #expect(try await remote.perform(.reset(source: nil)) == "Dropped 1 forced variant for id=qa-phone-7.")
        #expect(try world.store.forcedVariants().map(\.experiment) == ["ProfileRedesign"])
    }

    @Test func itReloadsWhenTheStreamSaysSoAndKeepsTheLastScreenWhenTheServerIsGone() throws {
        let world = try ConsoleWorld.demo()
        let connection = InProcessConnection(world)
        let monitor = ChangeMonitor()
        let remote = RemoteConsoleEnvironment(connection: connection, monitor: monitor, files: .disk)
        let first = try remote.load()
        #expect(try !remote.hasChanged())
        monitor.connected()
        #expect(try remote.hasChanged())
        #expect(try remote.load().connection == .live)
        #expect(try !remote.hasChanged())
        // The server goes away: the stream's follower reports it, the screen stays.
        connection.failing.withLock { $0 = true }
        let retry = Date(timeIntervalSince1970: 1_900_000_000)
        monitor.lost("connection refused", retryAt: retry)
        #expect(try remote.hasChanged())
        let kept = try remote.load()
        #expect(kept.entries == first.entries)
        #expect(kept.connection == .lost(reason: "connection refused", retryAt: retry))
        world.state.replaceData(kept)
        #expect(world.lines.contains { $0.contains("connection lost: connection refused · retrying") })
        #expect(world.lines[0].contains("offline"))
        // Back: live again, and the status line says nothing of it.
        connection.failing.withLock { $0 = false }
        monitor.connected()
        let back = try remote.load()
        #expect(back.connection == .live)
        world.state.replaceData(back)
        #expect(!world.lines.contains { $0.contains("connection lost") })
    }
}
