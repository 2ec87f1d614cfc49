import Foundation
internal import GRDB
import GrowthBook
import Laboratory

/// A row of `events`, as an analyst reads it with plain SQL.
///
/// Values keep their natural SQLite type, so `SELECT value FROM events`
/// reads `blue` and `12`, not JSON. Booleans are stored as 0 and 1, the
/// SQLite way, with `valueType` = `bool` beside them so they read back as
/// booleans; text holding a NUL is stored as its bytes, as SQLite's text
/// binding would end there.
struct EventRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "events"
    /// Every column, and the value's bytes: GRDB reads text up to its first NUL.
    static var databaseSelection: [any SQLSelectable] { [AllColumns(), SQL("CAST(value AS BLOB) AS valueBytes")] }

    var id: Int64?
    var event: Event

    init(_ event: Event) {
        self.event = event
    }

    /// A value of an unexpected type (text where a time belongs, a blob
    /// where text does) throws, naming the row, where GRDB's subscripts would trap.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        event = Event(
            time: try DamagedValue.time(row, "time", table: "events"),
            device: try DamagedValue.text(row, "device", table: "events"),
            source: try DamagedValue.text(row, "source", table: "events"),
            experiment: try DamagedValue.text(row, "experiment", table: "events"),
            variant: try DamagedValue.text(row, "variant", table: "events"),
            key: try DamagedValue.text(row, "key", table: "events"),
            value: try Self.value(row),
            reason: EventReason(rawValue: try DamagedValue.text(row, "reason", table: "events")),
            forced: try row.decode(Bool?.self, forColumn: "forced") ?? false,
            tester: try Self.tester(row)
        )
    }

    /// The stored form of each time in `events`, formatted once per distinct time.
    static func storedTimes(_ events: [Event]) -> [DatabaseValue] {
        var last: (time: Date, value: DatabaseValue)?
        return events.map { event in
            if let last, last.time == event.time { return last.value }
            let value = StoredTime.databaseValue(event.time)
            last = (event.time, value)
            return value
        }
    }

    var recorded: RecordedEvent { RecordedEvent(id: id ?? 0, event: event) }

    /// The columns an event is written to, in order.
    private static let columns = [
        "time", "device", "source", "experiment", "variant", "key", "value", "valueType", "reason", "forced", "tester",
    ]

    /// Inserts the row (``insert(_:into:)`` of one).
    func insert(into db: Database, time: DatabaseValue? = nil) throws {
        try Self.insert([event], into: db, times: [time ?? StoredTime.databaseValue(event.time)])
    }

    /// Inserts events many rows a statement (``BulkInsert``), the only way
    /// events are written: a first start records an `activated` event for
    /// every key of every experiment.
    ///
    /// `times` are the events' times as stored (``storedTimes(_:)``): the
    /// events of one refresh share a time, and formatting it is a third of
    /// the cost of a row.
    static func insert(_ events: [Event], into db: Database, times: [DatabaseValue]) throws {
        try BulkInsert("events", columns: columns).insert(db, count: events.count) { row, values in
            let event = events[row]
            values.value(times[row])
            values.text(event.device)
            values.text(event.source)
            values.text(event.experiment)
            values.text(event.variant)
            values.text(event.key)
            values.value(storedValue(event.value))
            values.text(valueType(event.value))
            values.text(event.reason.rawValue)
            values.integer(event.forced ? 1 : 0)
            values.text(event.tester)
        }
    }

    /// Who had forced the event's variant: text, or none (rows of earlier
    /// releases, which lack the column, read as none).
    private static func tester(_ row: Row) throws -> String? {
        guard row.hasColumn("tester") else { return nil }
        let stored: DatabaseValue = row["tester"]
        if stored.isNull { return nil }
        return try DamagedValue.text(row, "tester", table: "events")
    }

    /// A value as stored: its natural SQLite type, text holding a NUL as bytes.
    private static func storedValue(_ value: AssignmentValue) -> DatabaseValue {
        switch value {
        case .string(let text): return text.utf8.contains(0) ? Data(text.utf8).databaseValue : text.databaseValue
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 { return Int64(number).databaseValue }
            return number.databaseValue
        case .bool(let flag): return flag.databaseValue
        case .json(let value): return value.jsonText.databaseValue
        }
    }

    /// What the value column cannot say by its SQLite type: a boolean (stored as 0 or 1) or JSON (stored as text).
    private static func valueType(_ value: AssignmentValue) -> String? {
        switch value {
        case .bool: return "bool"
        case .json: return "json"
        default: return nil
        }
    }

    /// A value as read back, a boolean where the row says so.
    private static func value(_ row: Row) throws -> AssignmentValue {
        let stored: DatabaseValue = row["value"]
        var value: AssignmentValue
        switch stored.storage {
        case .string(let text): value = .string(text)
        case .int64(let number): value = .number(Double(number))
        case .double(let number): value = .number(number)
        case .blob(let bytes): value = .string(String(decoding: bytes, as: UTF8.self))  // text that holds a NUL
        case .null: value = .string("")
        }
        if case .string = value, let bytes = try row.decode(Data?.self, forColumn: "valueBytes") {
            value = .string(String(decoding: bytes, as: UTF8.self))  // the whole text, past any NUL
        }
        switch try row.decode(String?.self, forColumn: "valueType") {
        case "bool": return value.numberValue.map { .bool($0 != 0) } ?? value
        case "json":
            // Text that no longer parses (a damaged row) is shown as the text it is.
            return value.stringValue.flatMap { try? JSONValue.parse($0) }.map(AssignmentValue.json) ?? value
        default: return value
        }
    }
}
