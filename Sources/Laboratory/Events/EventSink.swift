/// Where events go: the SQLite event table, or memory in tests.
public protocol EventSink: Sendable {
    /// Records events, in order.
    func record(_ events: [Event]) throws

    /// Records `event` unless an event with the same reason, device,
    /// experiment and variant is already recorded, atomically across processes.
    /// - Returns: whether the event was recorded.
    func recordOnce(_ event: Event) throws -> Bool
}

/// Reads recorded events back, for the console and `lab events`.
public protocol EventLog: Sendable {
    /// Events with an id above `id` (all when `nil`), oldest first, at most `limit`.
    func events(after id: Int64?, limit: Int) throws -> [RecordedEvent]

    /// The newest `limit` events, newest first.
    func latestEvents(limit: Int) throws -> [RecordedEvent]
}
