/// Where events go: the SQLite event table, or memory in tests.
public protocol EventSink: Sendable {
    /// Records events, in order.
    func record(_ events: [Event]) throws

    /// Records `event` unless an event with the same reason, device,
    /// experiment and variant is already recorded, atomically across processes.
    /// - Returns: whether the event was recorded.
    func recordOnce(_ event: Event) throws -> Bool

    /// The newest `activated` event of `assignment` (its source,
    /// experiment, key and variant) on `device`: whether it was forced when
    /// it entered the active set, for the `deactivated` event when it leaves.
    func latestActivation(of assignment: Assignment, device: String) throws -> Event?
}

extension EventSink where Self: EventLog {
    /// Reads it back from the log itself.
    public func latestActivation(of assignment: Assignment, device: String) throws -> Event? {
        let query = EventQuery(reasons: [.activated], experiments: [assignment.experiment])
        return try latestEvents(matching: query, limit: 64).lazy.map(\.event).first {
            $0.source == assignment.source && $0.key == assignment.key && $0.device == device
                && $0.variant == assignment.variant
        }
    }
}

/// Reads recorded events back, for the console and `lab events`.
public protocol EventLog: Sendable {
    /// Matching events with an id above `id` (all when `nil`), oldest first, at most `limit`.
    func events(matching query: EventQuery, after id: Int64?, limit: Int) throws -> [RecordedEvent]

    /// The newest `limit` matching events, newest first.
    func latestEvents(matching query: EventQuery, limit: Int) throws -> [RecordedEvent]

    /// `displayed` events counted by source, experiment and variant: the exposures.
    func exposureCounts() throws -> [ExposureCount]

    /// Announces events added by this process or another (a store that is
    /// also the event log announces both with one signal); `nil` for a log
    /// that cannot tell.
    var changeSignal: ChangeSignal? { get }
}

extension EventLog {
    /// A log that cannot tell when events are added.
    public var changeSignal: ChangeSignal? { nil }

    /// Events with an id above `id` (all when `nil`), oldest first, at most `limit`.
    public func events(after id: Int64?, limit: Int) throws -> [RecordedEvent] {
        try events(matching: EventQuery(), after: id, limit: limit)
    }

    /// The newest `limit` events, newest first.
    public func latestEvents(limit: Int) throws -> [RecordedEvent] {
        try latestEvents(matching: EventQuery(), limit: limit)
    }
}
