import Foundation
import Laboratory

/// Everything the console shows, read at one moment from the manager, the
/// debug source and the event log. The reducer and renderer see only this.
package struct ConsoleData: Sendable, Equatable {
    /// One source as the Settings screen shows it.
    package struct SourceInfo: Sendable, Equatable {
        package var name: String
        package var status: SourceStatus
        package var stabilizedAt: Date?
        package var experimentCount: Int
        /// More about the source's data: a payload's ETag, counts, transport and age.
        package var detail: String?
        /// When it fetches next, for a source that fetches on a timer.
        package var schedule: FetchSchedule?

        package init(
            name: String,
            status: SourceStatus,
            stabilizedAt: Date?,
            experimentCount: Int,
            detail: String? = nil,
            schedule: FetchSchedule? = nil
        ) {
            self.name = name
            self.status = status
            self.stabilizedAt = stabilizedAt
            self.experimentCount = experimentCount
            self.detail = detail
            self.schedule = schedule
        }
    }

    /// The server `lab console --serve` runs, as the Settings screen shows it.
    package struct ServerInfo: Sendable, Equatable {
        /// The base URL: a GrowthBook SDK's apiHost, an OFREP provider's base URL.
        package var url: String
        package var openStreams: Int
        package var requestsLastMinute: Int
        package var lastClient: String?

        package init(url: String, openStreams: Int, requestsLastMinute: Int, lastClient: String?) {
            self.url = url
            self.openStreams = openStreams
            self.requestsLastMinute = requestsLastMinute
            self.lastClient = lastClient
        }
    }

    package var sources: [SourceInfo]
    /// The server, when the console runs one.
    package var server: ServerInfo?
    /// Every experiment of every source, in source order then by name.
    package var entries: [DebugEntry]
    package var snapshot: AssignmentsSnapshot
    package var token: ActiveExperimentsToken
    package var staleForcedVariants: [StaleForcedVariant]
    /// The newest events, newest first.
    package var events: [RecordedEvent]
    /// Stored draws by source, then experiment, for the detail pane.
    package var draws: [String: [String: Draw]]
    /// Where the data comes from, for the title bar (e.g. the state file).
    package var origin: String
    /// This device, for explanations (whitelists, hashes).
    package var device: Device
    /// The logged-in user, for user-level experiments.
    package var userID: String?
    /// How each app that opened the state file is wired: whether forcing reaches it.
    package var appWirings: [AppWiring] = []
    /// Whom this console forces for (`--as`): shown in the title bar.
    package var scope: Scope = .everyone
    /// How a console connected to `lab serve` stands with it; `nil` on a state file.
    package var connection: ConnectionState?
    /// How sources that explain themselves (GrowthBook) decide each
    /// experiment, step by step, by source then experiment.
    package var decisionSteps: [String: [String: [Explanation.Step]]] = [:]
    /// Sources whose decision steps came without the data: the console asks
    /// for the shown experiment's steps (``ConsoleEnvironment/decisionSteps(source:experiment:)``).
    package var stepsOnRequest: Set<String> = []
    /// The device's attributes and those targeting reads unset, for the Attributes screen.
    package var attributes: [DeviceAttribute] = []

    package init(
        sources: [SourceInfo] = [],
        entries: [DebugEntry] = [],
        snapshot: AssignmentsSnapshot = AssignmentsSnapshot(),
        token: ActiveExperimentsToken = ActiveExperimentsToken(0),
        staleForcedVariants: [StaleForcedVariant] = [],
        events: [RecordedEvent] = [],
        draws: [String: [String: Draw]] = [:],
        origin: String = "",
        device: Device = Device(id: "", token: ActiveExperimentsToken(0)),
        userID: String? = nil
    ) {
        self.sources = sources
        self.entries = entries
        self.snapshot = snapshot
        self.token = token
        self.staleForcedVariants = staleForcedVariants
        self.events = events
        self.draws = draws
        self.origin = origin
        self.device = device
        self.userID = userID
    }

    /// The entry for one experiment.
    /// What a ``SteeringSnapshot`` holds, as the console shows it.
    /// - Parameters:
    ///   - origin: what the console works on: a state file's path, or a server's address.
    ///   - scope: whom this console forces for.
    package init(_ snapshot: SteeringSnapshot, origin: String, scope: Scope) {
        self.init(
            sources: snapshot.sources.map {
                SourceInfo(
                    name: $0.name,
                    status: $0.status,
                    stabilizedAt: $0.stabilizedAt,
                    experimentCount: $0.experimentCount,
                    detail: $0.detail
                )
            },
            entries: snapshot.entries,
            snapshot: snapshot.snapshot,
            token: snapshot.device.token,
            staleForcedVariants: snapshot.staleForcedVariants,
            events: snapshot.events,
            draws: snapshot.draws,
            origin: origin,
            device: snapshot.device,
            userID: snapshot.userID
        )
        appWirings = snapshot.appWirings
        decisionSteps = snapshot.decisionSteps
        attributes = snapshot.attributes
        self.scope = scope
    }

    package func entry(source: String, experiment: String) -> DebugEntry? {
        entries.first { $0.source == source && $0.experiment.name == experiment }
    }

    /// The id of the newest event: ids start at 1 and only grow, and rows are
    /// never deleted, so it is also how many events the table holds.
    package var newestEventID: Int64 { events.first?.id ?? 0 }
}

extension DebugEntry {
    /// The conflicts this experiment is part of.
    func conflicts(in snapshot: AssignmentsSnapshot) -> [Conflict] {
        snapshot.conflicts(involving: source, experiment.name)
    }

    /// Whether this experiment lost a conflict, so the app gets none of its keys.
    func isSetAside(in snapshot: AssignmentsSnapshot) -> Bool {
        snapshot.conflicts.contains { $0.loser.source == source && $0.loser.experiment == experiment.name }
    }
}
