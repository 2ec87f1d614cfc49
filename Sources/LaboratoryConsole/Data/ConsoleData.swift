import Foundation
import Laboratory

/// Everything the console shows, read at one moment from the manager, the
/// debug source and the event log. The reducer and renderer see only this.
public struct ConsoleData: Sendable, Equatable {
    /// One source as the Settings screen shows it.
    public struct SourceInfo: Sendable, Equatable {
        public var name: String
        public var status: SourceStatus
        public var stabilizedAt: Date?
        public var experimentCount: Int
        /// More about the source's data: a payload's ETag, counts, transport and age.
        public var detail: String?
        /// When it fetches next, for a source that fetches on a timer.
        public var schedule: FetchSchedule?

        public init(
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
    public struct ServerInfo: Sendable, Equatable {
        /// The base URL: a GrowthBook SDK's apiHost, an OFREP provider's base URL.
        public var url: String
        public var openStreams: Int
        public var requestsLastMinute: Int
        public var lastClient: String?

        public init(url: String, openStreams: Int, requestsLastMinute: Int, lastClient: String?) {
            self.url = url
            self.openStreams = openStreams
            self.requestsLastMinute = requestsLastMinute
            self.lastClient = lastClient
        }
    }

    public var sources: [SourceInfo]
    /// The server, when the console runs one.
    public var server: ServerInfo?
    /// Every experiment of every source, in source order then by name.
    public var entries: [DebugEntry]
    public var snapshot: AssignmentsSnapshot
    public var token: ActiveExperimentsToken
    public var staleForcedVariants: [StaleForcedVariant]
    /// The newest events, newest first.
    public var events: [RecordedEvent]
    /// Stored draws by source, then experiment, for the detail pane.
    public var draws: [String: [String: Draw]]
    /// Where the data comes from, for the title bar (e.g. the state file).
    public var origin: String
    /// This device, for explanations (whitelists, hashes).
    public var device: Device
    /// The logged-in user, for user-level experiments.
    public var userID: String?
    /// How each app that opened the state file is wired: whether forcing reaches it.
    public var appWirings: [AppWiring] = []
    /// Whom this console forces for (`--as`): shown in the title bar.
    public var scope: Scope = .everyone
    /// How a console connected to `lab serve` stands with it; `nil` on a state file.
    public var connection: ConnectionState?
    /// How sources that explain themselves (GrowthBook) decide each
    /// experiment, step by step, by source then experiment.
    public var decisionSteps: [String: [String: [Explanation.Step]]] = [:]
    /// Sources whose decision steps came without the data: the console asks
    /// for the shown experiment's steps (``ConsoleEnvironment/decisionSteps(source:experiment:)``).
    public var stepsOnRequest: Set<String> = []
    /// The device's attributes and those targeting reads unset, for the Attributes screen.
    public var attributes: [DeviceAttribute] = []

    public init(
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
    public init(_ snapshot: SteeringSnapshot, origin: String, scope: Scope) {
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

    public func entry(source: String, experiment: String) -> DebugEntry? {
        entries.first { $0.source == source && $0.experiment.name == experiment }
    }

    /// The id of the newest event: ids start at 1 and only grow, and rows are
    /// never deleted, so it is also how many events the table holds.
    public var newestEventID: Int64 { events.first?.id ?? 0 }
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
