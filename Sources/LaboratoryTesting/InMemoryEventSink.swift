import Foundation
import Laboratory
import Synchronization

/// An `EventSink` and `EventLog` in memory, for tests.
public final class InMemoryEventSink: EventSink, EventLog, Sendable {
    private let rows = Mutex<[RecordedEvent]>([])
    private let signal = ChangeSignal()

    /// An empty log.
    public init() {}

    /// Announces every event recorded, as it is.
    public var changeSignal: ChangeSignal? { signal }

    /// Every event recorded so far, oldest first.
    public var events: [Event] { rows.withLock({ $0 }).map(\.event) }

    public func record(_ events: [Event]) throws {
        rows.withLock { rows in
            for event in events {
                rows.append(RecordedEvent(id: Int64(rows.count + 1), event: event))
            }
        }
        if !events.isEmpty { signal.announce() }
    }

    public func recordOnce(_ event: Event) throws -> Bool {
        let recorded = rows.withLock { rows in
            let seen = rows.contains {
                $0.event.reason == event.reason && $0.event.device == event.device
                    && $0.event.experiment == event.experiment && $0.event.variant == event.variant
            }
            if seen { return false }
            rows.append(RecordedEvent(id: Int64(rows.count + 1), event: event))
            return true
        }
        if recorded { signal.announce() }
        return recorded
    }

    public func events(matching query: EventQuery, after id: Int64?, limit: Int) throws -> [RecordedEvent] {
        Array(rows.withLock({ $0 }).filter { $0.id > (id ?? 0) && query.matches($0.event) }.prefix(limit))
    }

    public func latestEvents(matching query: EventQuery, limit: Int) throws -> [RecordedEvent] {
        Array(rows.withLock({ $0 }).filter { query.matches($0.event) }.suffix(limit).reversed())
    }

    public func exposureCounts() throws -> [ExposureCount] {
        var counts: [ExposureCount] = []
        for row in rows.withLock({ $0 }) where row.event.reason == .displayed {
            let event = row.event
            if let index = counts.firstIndex(where: {
                $0.source == event.source && $0.experiment == event.experiment && $0.variant == event.variant
            }) {
                if event.forced { counts[index].forced += 1 } else { counts[index].count += 1 }
            } else {
                counts.append(
                    ExposureCount(
                        source: event.source,
                        experiment: event.experiment,
                        variant: event.variant,
                        count: event.forced ? 0 : 1,
                        forced: event.forced ? 1 : 0
                    )
                )
            }
        }
        return counts
    }
}
