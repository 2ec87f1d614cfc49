import Foundation
import Laboratory
import Synchronization

/// The console's view of a `lab serve` it is connected to (`lab console
/// --connect`): every screen from the steering API's snapshot, reloaded
/// when the change stream says something changed; no state file here.
///
/// A lost connection keeps the last good data on screen with the loss in
/// the status line, until the follower reconnects by itself.
package final class RemoteConsoleEnvironment: ConsoleEnvironment, Sendable {
    private let connection: any SteeringConnection
    private let monitor: ChangeMonitor
    private let scope: Scope
    private let eventLimit: Int
    /// Reads and writes overrides files on this machine.
    private let files: OverridesFileAccess

    private struct Seen {
        var generation: Int?
        var lastGood: ConsoleData?
    }

    private let seen = Mutex(Seen())

    package init(
        connection: any SteeringConnection,
        monitor: ChangeMonitor,
        scope: Scope = .everyone,
        files: OverridesFileAccess,
        eventLimit: Int = 500
    ) {
        self.connection = connection
        self.monitor = monitor
        self.scope = scope
        self.files = files
        self.eventLimit = eventLimit
    }

    package func load() throws -> ConsoleData {
        let generation = monitor.generation
        let state = monitor.state
        do {
            var data = ConsoleData(
                try connection.snapshot(scope: scope, events: eventLimit),
                origin: connection.address,
                scope: scope
            )
            data.connection = state
            seen.withLock { $0 = Seen(generation: generation, lastGood: data) }
            return data
        } catch {
            let lost = state.isLost ? state : .lost(reason: String(describing: error), retryAt: Date())
            guard var data = seen.withLock({ $0.lastGood }) else { throw error }
            data.connection = lost
            seen.withLock { $0.generation = generation }
            return data
        }
    }

    package func hasChanged() throws -> Bool {
        let generation = monitor.generation
        return seen.withLock { $0.generation != generation }
    }

    package func perform(_ effect: ConsoleEffect) async throws -> String {
        switch effect {
        case .force(let source, let experiment, let variant):
            return try connection.force(variant ?? DebugSource.inactiveChoice, of: experiment, in: source, scope: scope)
                .summary
        case .unforce(let source, let experiment):
            return try connection.unforce(experiment, in: source, scope: scope).summary
        case .reset(let source):
            // A console scoped to some users drops only their forced variants.
            return try connection.reset(source: source, scope: scope.isEveryone ? nil : scope).summary
        case .exportOverrides(let path):
            return try files.export(try connection.exportOverrides(), to: path)
        case .importOverrides(let path):
            // Read here first, so its mistakes are named with this machine's path.
            return try connection.importOverrides(try files.overrides(at: path).data, replacing: false).summary
        case .setAttribute(let name, let value):
            return try connection.setAttribute(name, to: value).summary
        case .explain:
            // The runner reads it with decisionSteps(source:experiment:); there is nothing to perform.
            return ""
        case .update:
            return "Updating is the server's to do: its sources fetch on their own schedule."
        }
    }
}
