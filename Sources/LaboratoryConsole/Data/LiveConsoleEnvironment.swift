import Foundation
import Laboratory
import Synchronization

/// The console's view of a running framework: a manager over a debug source,
/// the state store and the event log.
package final class LiveConsoleEnvironment: ConsoleEnvironment, Sendable {
    private let manager: AssignmentsManager
    private let debug: DebugSource
    private let steering: Steering
    /// Whom this console forces for (`--as`): everyone by default.
    private let scope: Scope
    /// Who the changes are recorded as.
    private let tester: String?
    private let store: any ActiveSetStore & ForcedVariantStore
    private let log: any EventLog
    private let origin: String
    /// How many of the newest events the Events screen holds.
    private let eventLimit: Int

    /// The server `--serve` runs, if any: asked on every load and change check.
    private let server: (@Sendable () -> ConsoleData.ServerInfo?)?
    /// Reloads edited catalog files (the wiring knows where they are), if given.
    private let catalogs: (@Sendable () async -> (reloaded: Int, problems: [String]))?
    /// When sources that fetch on a timer fetch next, by source name, if any do.
    private let schedules: (@Sendable () -> [String: FetchSchedule])?
    /// The files overrides are imported from and exported to: the console
    /// core does no file I/O of its own, the wiring hands it the same code
    /// `lab overrides` uses.
    private let files: OverridesFileAccess

    private struct Seen: Equatable {
        /// The store's and the log's change signals, counted, when the last load began.
        var signals: Int?
        var revision: Int64?
        var newestEvent: Int64?
        var statuses: [String: SourceStatus] = [:]
        var server: ConsoleData.ServerInfo?
    }

    /// What the last load saw; load() and hasChanged() run on background tasks.
    private let seen = Mutex(Seen())
    /// The store's and the log's change signals (one, when the store is the
    /// log), when both can tell: a poll that finds them quiet reads nothing.
    private let signals: [ChangeSignal]?
    /// Held for as long as the console runs: a listener keeps the SQLite
    /// store watching for other processes' commits.
    private let listening: [AsyncStream<Void>]

    /// - Parameters:
    ///   - scope: whom forcing applies to (`--as`); the debug source should
    ///     have taken its attributes, so the screens show what those users get.
    ///   - tester: who the changes are recorded as.
    package init(
        manager: AssignmentsManager,
        debug: DebugSource,
        store: any ActiveSetStore & ForcedVariantStore,
        log: any EventLog,
        scope: Scope = .everyone,
        tester: String? = nil,
        clock: any WallClock = SystemClock(),
        files: OverridesFileAccess,
        origin: String = "",
        eventLimit: Int = 500,
        server: (@Sendable () -> ConsoleData.ServerInfo?)? = nil,
        catalogs: (@Sendable () async -> (reloaded: Int, problems: [String]))? = nil,
        schedules: (@Sendable () -> [String: FetchSchedule])? = nil
    ) {
        self.schedules = schedules
        self.files = files
        self.server = server
        self.catalogs = catalogs
        self.manager = manager
        self.debug = debug
        self.scope = scope
        self.tester = tester
        steering = Steering(debug: debug, manager: manager, store: store, clock: clock)
        if let stored = store.changeSignal, let logged = log.changeSignal {
            signals = stored === logged ? [stored] : [stored, logged]
        } else {
            signals = nil
        }
        listening = (signals ?? []).map { $0.stream() }
        self.store = store
        self.log = log
        self.origin = origin
        self.eventLimit = eventLimit
    }

    /// The changes announced so far, when the store and the log can tell.
    private var signalCount: Int? {
        signals.map { $0.reduce(0) { $0 + $1.count } }
    }

    package func load() throws -> ConsoleData {
        let signalled = signalCount
        let read = try SteeringSnapshot.read(
            manager: manager,
            debug: debug,
            store: store,
            log: log,
            eventLimit: eventLimit,
            scope: scope,
            explainingEvery: false
        )
        var data = ConsoleData(read, origin: origin, scope: scope)
        data.stepsOnRequest = Set(debug.sources.filter { $0.explaining != nil }.map(\.name))
        let schedules = schedules?() ?? [:]
        for index in data.sources.indices { data.sources[index].schedule = schedules[data.sources[index].name] }
        data.server = server?()
        seen.withLock {
            $0 = Seen(
                signals: signalled,
                revision: read.revision,
                newestEvent: read.events.first?.id,
                statuses: manager.statuses,
                server: data.server
            )
        }
        return data
    }

    package func decisionSteps(source: String, experiment: String) throws -> [Explanation.Step] {
        guard let owner = debug.sources.first(where: { $0.name == source }) else { return [] }
        return owner.explaining?.decisionSteps(for: [experiment])[experiment] ?? []
    }

    package func hasChanged() throws -> Bool {
        let signalled = signalCount
        let statuses = manager.statuses
        let server = server?()
        let last = seen.withLock { $0 }
        if let signalled, last.signals == signalled, last.statuses == statuses, last.server == server {
            return false
        }
        // Something was signalled: read what it was, and reload only for a real change.
        let revision = try store.revision()
        let newestEvent = try log.latestEvents(limit: 1).first?.id
        let changed =
            revision != last.revision || newestEvent != last.newestEvent || statuses != last.statuses
            || server != last.server
        if !changed, let signalled { seen.withLock { $0.signals = max($0.signals ?? 0, signalled) } }
        return changed
    }

    package func reloadEditedCatalogs() async -> (reloaded: Bool, problems: [String]) {
        guard let catalogs else { return (false, []) }
        let (reloaded, problems) = await catalogs()
        return (reloaded > 0, problems)
    }

    package func perform(_ effect: ConsoleEffect) async throws -> String {
        switch effect {
        case .force(let source, let experiment, let variant):
            return try steering.force(
                variant ?? DebugSource.inactiveChoice,
                of: experiment,
                in: source,
                scope: scope,
                tester: tester
            ).summary
        case .unforce(let source, let experiment):
            return try steering.unforce(experiment, in: source, scope: scope).summary
        case .reset(let source):
            // A console scoped to some users drops only their forced variants.
            return try steering.reset(source: source, scope: scope.isEveryone ? nil : scope).summary
        case .exportOverrides(let path):
            return try files.export(try steering.exportOverrides(), to: path)
        case .importOverrides(let path):
            let file = try files.overrides(at: path).file
            do {
                return try steering.importOverrides(file, replacing: false, tester: tester, from: path).summary
            } catch let error as OverridesError {
                throw ConsoleEnvironmentError("\(path): " + error.problems.joined(separator: "; "))
            }
        case .setAttribute(let name, let value):
            return try steering.setAttribute(name, to: value).summary
        case .explain:
            // The runner reads it with decisionSteps(source:experiment:); there is nothing to perform.
            return ""
        case .update:
            let results = await manager.update()
            let failures = results.filter { if case .error = $0.value { true } else { false } }
            if failures.isEmpty { return "Updated \(results.count) source\(results.count == 1 ? "" : "s")." }
            return failures.keys.sorted().map { "\($0): \(results[$0]!.summary)" }.joined(separator: "; ")
        }
    }
}

/// A failure the console reports in its status line.
struct ConsoleEnvironmentError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
