import Foundation
internal import GRDB
import Laboratory

// MARK: - EventSink

extension SQLiteStateStore {
    public func record(_ events: [Event]) throws {
        guard !events.isEmpty else { return }
        try write { db in try EventRecord.insert(events, into: db, times: EventRecord.storedTimes(events)) }
    }

    public func recordOnce(_ event: Event) throws -> Bool {
        try write { db in
            if try Self.seen(event, db) { return false }
            try EventRecord(event).insert(into: db)
            return true
        }
    }

    /// Records events in one transaction, all of them or none; a `displayed`
    /// event only when its device has not reported that experiment and
    /// variant as displayed yet, as ``recordOnce(_:)`` does.
    /// - Returns: how many rows were added.
    public func recordAll(_ events: [Event]) throws -> Int {
        guard !events.isEmpty else { return 0 }
        return try write { db in
            var added = 0
            let times = EventRecord.storedTimes(events)
            for (event, time) in zip(events, times) {
                if event.reason == .displayed, try Self.seen(event, db) { continue }
                try EventRecord(event).insert(into: db, time: time)
                added += 1
            }
            return added
        }
    }

    /// The newest `activated` row of exactly this assignment on `device`,
    /// found through the index on device, experiment, variant and reason.
    /// (The log's general answer read the experiment's newest activations
    /// by id, a scan of the table when the state file holds tens of
    /// thousands of events: 5 ms of every refresh in which a variant left.)
    public func latestActivation(of assignment: Assignment, device: String) throws -> Event? {
        try read { db in
            try EventRecord.filter(
                Column("device") == device && Column("experiment") == assignment.experiment
                    && Column("variant") == assignment.variant && Column("reason") == EventReason.activated.rawValue
                    && Column("source") == assignment.source && Column("key") == assignment.key
            ).order(Column("id").desc).fetchOne(db)?.event
        }
    }

    private static func seen(_ event: Event, _ db: Database) throws -> Bool {
        try EventRecord.filter(
            Column("device") == event.device && Column("experiment") == event.experiment
                && Column("variant") == event.variant && Column("reason") == event.reason.rawValue
        ).isEmpty(db) == false
    }
}

// MARK: - EventLog

extension SQLiteStateStore {
    public func events(matching query: EventQuery, after id: Int64?, limit: Int) throws -> [RecordedEvent] {
        try read { db in
            try Self.filtered(query)
                .filter(Column("id") > (id ?? 0))
                .order(Column("id"))
                .limit(limit)
                .fetchAll(db)
                .map(\.recorded)
        }
    }

    public func latestEvents(matching query: EventQuery, limit: Int) throws -> [RecordedEvent] {
        try read { db in
            try Self.filtered(query).order(Column("id").desc).limit(limit).fetchAll(db).map(\.recorded)
        }
    }

    public func exposureCounts() throws -> [ExposureCount] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT source, experiment, variant, SUM(forced = 0), SUM(forced != 0) FROM events
                    WHERE reason = 'displayed'
                    GROUP BY source, experiment, variant ORDER BY source, experiment, variant
                    """
            ).map {
                ExposureCount(
                    source: try $0.decode(atIndex: 0),
                    experiment: try $0.decode(atIndex: 1),
                    variant: try $0.decode(atIndex: 2),
                    count: try $0.decode(atIndex: 3),
                    forced: try $0.decode(atIndex: 4)
                )
            }
        }
    }

    /// The events a query keeps.
    private static func filtered(_ query: EventQuery) -> QueryInterfaceRequest<EventRecord> {
        var selection = EventRecord.all()
        if let since = query.since { selection = selection.filter(Column("time") >= since) }
        if !query.reasons.isEmpty {
            selection = selection.filter(query.reasons.map(\.rawValue).contains(Column("reason")))
        }
        if !query.experiments.isEmpty { selection = selection.filter(query.experiments.contains(Column("experiment"))) }
        return selection
    }
}
