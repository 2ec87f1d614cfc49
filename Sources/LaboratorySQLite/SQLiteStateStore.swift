import Foundation
import GRDB
import Laboratory

/// The state file: a ``StateStore``, ``EventSink`` and ``EventLog`` on SQLite.
///
/// The app and `lab console` open the same file at the same time. It is in
/// WAL mode, so readers never wait for writers; every write is one immediate
/// transaction, and a busy file is waited for (up to ten seconds) rather than
/// failed, so nothing either process writes is lost. The file and its folder
/// are created private to the user (0600 / 0700).
public final class SQLiteStateStore: StateStore, EventSink, EventLog, Sendable {
    /// The path as given.
    public let path: String
    private let queue: DatabaseQueue

    /// The version of the state files this release writes; older ones are
    /// upgraded in place when opened, newer ones refused.
    public static var fileVersion: Int { StateSchema.version }

    /// Opens the state file at `path`, creating it (and its folder) if needed.
    ///
    /// A file that is not a Laboratory state file is refused and left as it is.
    public init(path: String) throws(SQLiteStoreError) {
        self.path = path
        try Self.createIfMissing(path)
        let inWALMode = try Self.checkHeader(path)
        // Look before switching to WAL: the switch itself writes to the file.
        let needsSchema = try Self.opening(path) {
            var inspection = Configuration()
            inspection.readonly = true
            inspection.busyMode = .timeout(10)
            return try DatabaseQueue(path: path, configuration: inspection).read { db in
                try StateSchema.check(db, path: path)
            }
        }
        var configuration = Configuration()
        // A file already in WAL mode stays in it; asking again would make GRDB
        // write to it on opening whenever no WAL file exists yet, and a reader
        // would wait behind another process's long write.
        configuration.journalMode = inWALMode ? .default : .wal
        configuration.busyMode = .timeout(10)
        configuration.label = "Laboratory state"
        queue = try Self.opening(path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Only a new or older file is written to on opening: a reader such
            // as `lab events` must not wait for another process's long write.
            if needsSchema { try StateSchema.migrate(queue, path: path) }
            return queue
        }
    }

    /// Runs a step of opening, turning what SQLite says into an error that names the path.
    private static func opening<T>(_ path: String, _ body: () throws -> T) throws(SQLiteStoreError) -> T {
        do {
            return try body()
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .database(path: path, reason: reason(error))
        }
    }

    // MARK: - Opening

    private static func createIfMissing(_ path: String) throws(SQLiteStoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .cannotOpen(path: path, reason: "cannot create folder \(folder): \(FileContents.reason(error))")
            }
        }
        // Anything but a regular file is refused before it is opened: reading a
        // FIFO would wait for a writer for ever, and SQLite has no use for the rest.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a directory"
                case S_IFIFO: "a FIFO"
                case S_IFCHR, S_IFBLK: "a device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw .cannotOpen(path: path, reason: "it is \(kind); a state file is a regular file")
        }
        // O_EXCL: if another process creates it first, ours is simply not needed.
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Refuses a file that is not empty and does not start like a SQLite database,
    /// before SQLite gets a chance to treat it as one.
    /// - Returns: whether the file is in WAL mode (header bytes 18 and 19 are 2).
    private static func checkHeader(_ path: String) throws(SQLiteStoreError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 20)) ?? Data())
        if header.isEmpty { return false }
        if !header.starts(with: Array("SQLite format 3\0".utf8)) { throw .notADatabase(path: path) }
        return header.count == 20 && header[18] == 2 && header[19] == 2
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return String(describing: error)
    }

    // MARK: - Access

    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.write(body)
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as RowDecodingError {
            throw SQLiteStoreError.unexpectedValue(path: path, detail: String(describing: error))
        } catch {
            throw SQLiteStoreError.database(path: path, reason: Self.reason(error))
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as RowDecodingError {
            throw SQLiteStoreError.unexpectedValue(path: path, detail: String(describing: error))
        } catch {
            throw SQLiteStoreError.database(path: path, reason: Self.reason(error))
        }
    }

    private static func bumpRevision(_ db: Database) throws {
        try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'revision'")
    }

    // MARK: - StateStore

    public func device(candidate: Device) throws -> Device {
        // Read first: once a device exists, nothing here needs the write lock.
        let known = try read { db in try Self.storedDevice(db, path: path) }
        if let id = known.id, let token = known.token { return Device(id: id, token: ActiveExperimentsToken(token)) }
        return try write { db in
            // Another process may have stored one meanwhile; what is stored wins.
            let stored = try Self.storedDevice(db, path: path)
            let device = Device(
                id: stored.id ?? candidate.id,
                token: stored.token.map(ActiveExperimentsToken.init) ?? candidate.token
            )
            guard stored.id == nil || stored.token == nil else { return device }
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('device', ?), ('token', ?)",
                arguments: [device.id, device.token.value]
            )
            try Self.bumpRevision(db)
            return device
        }
    }

    /// The stored device id and token, each `nil` when missing.
    private static func storedDevice(_ db: Database, path: String) throws -> (id: String?, token: Double?) {
        (try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'device'"), try storedToken(db, path: path))
    }

    private static func storedToken(_ db: Database, path: String) throws -> Double? {
        // Read as stored: SQLite would turn a damaged 'zz' into a token of 0 and move the device.
        let stored = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'token'")
        switch stored?.storage {
        case nil, .null?: return nil
        case .int64(let value)?: return Double(value)
        case .double(let value)?: return value
        case .string?, .blob?:
            throw SQLiteStoreError.unexpectedValue(
                path: path,
                detail: "the device token in table meta is \(stored!.description), not a number"
            )
        }
    }

    public func resolveChoices(
        source: String,
        experiments: [String],
        at time: Date,
        decide: (String, StoredChoice?) -> ChoiceDecision
    ) throws -> [String: StoredChoice] {
        // Decide in a read first: when every decision keeps what is stored, as
        // on all but the first start, no write lock is taken at all. Decisions
        // made here are reused below for choices that did not change since,
        // so `decide` (which may draw) runs once per experiment.
        let listed = Set(experiments)
        var early: [String: (stored: StoredChoice?, decision: ChoiceDecision)] = [:]
        let unchanged = try read { db -> [String: StoredChoice]? in
            let choices = try Self.choices(db, source: source)
            var needsWrite = choices.keys.contains { !listed.contains($0) }
            for experiment in experiments {
                let decision = decide(experiment, choices[experiment])
                early[experiment] = (choices[experiment], decision)
                switch decision {
                case .keep: continue
                case .forget where choices[experiment] == nil: continue
                default: needsWrite = true
                }
            }
            return needsWrite ? nil : choices
        }
        if let unchanged { return unchanged }
        return try write { db in
            var choices = try Self.choices(db, source: source)
            var changed = false
            func decision(_ experiment: String) -> ChoiceDecision {
                if let made = early[experiment], made.stored == choices[experiment] { return made.decision }
                return decide(experiment, choices[experiment])
            }
            // Prepared once: a first start may draw for thousands of experiments.
            let delete = try db.cachedStatement(sql: "DELETE FROM choices WHERE source = ? AND experiment = ?")
            let insert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO choices (source, experiment, variant, madeAt) VALUES (?, ?, ?, ?)"
            )
            for experiment in choices.keys where !listed.contains(experiment) {
                try delete.execute(arguments: [source, experiment])
                choices[experiment] = nil
                changed = true
            }
            for experiment in experiments {
                switch decision(experiment) {
                case .keep:
                    continue
                case .choose(let variant):
                    try insert.execute(arguments: [source, experiment, variant, time.timeIntervalSince1970])
                    choices[experiment] = StoredChoice(variant: variant, madeAt: time)
                case .forget:
                    guard choices[experiment] != nil else { continue }
                    try delete.execute(arguments: [source, experiment])
                    choices[experiment] = nil
                }
                changed = true
            }
            if changed { try Self.bumpRevision(db) }
            return choices
        }
    }

    public func choices(source: String) throws -> [String: StoredChoice] {
        try read { db in try Self.choices(db, source: source) }
    }

    private static func choices(_ db: Database, source: String) throws -> [String: StoredChoice] {
        // A cursor with columns by position: no row copies, for thousands of rows.
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT experiment, variant, madeAt FROM choices WHERE source = ?",
            arguments: [source]
        )
        var choices: [String: StoredChoice] = [:]
        while let row = try rows.next() {
            choices[try row.decode(String.self, atIndex: 0)] = StoredChoice(
                variant: try row.decode(String.self, atIndex: 1),
                madeAt: Date(timeIntervalSince1970: try row.decode(Double.self, atIndex: 2))
            )
        }
        return choices
    }

    public func stabilization(source: String) throws -> Date? {
        try read { db in
            try Date.fetchOne(db, sql: "SELECT time FROM stabilization WHERE source = ?", arguments: [source])
        }
    }

    public func unstabilize(source: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM stabilization WHERE source = ?", arguments: [source])
            if db.changesCount > 0 { try Self.bumpRevision(db) }
        }
    }

    public func stabilize(source: String, at time: Date) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO stabilization (source, time) VALUES (?, ?)",
                arguments: [source, time]
            )
            if db.changesCount > 0 { try Self.bumpRevision(db) }
        }
    }

    public func debugRequests() throws -> [DebugRequest] {
        try read(Self.debugRequests)
    }

    private static func debugRequests(_ db: Database) throws -> [DebugRequest] {
        try Row.fetchAll(
            db,
            sql: "SELECT source, experiment, variant FROM debug_requests ORDER BY source, experiment"
        ).map {
            DebugRequest(
                source: try $0.decode(forColumn: "source"),
                experiment: try $0.decode(forColumn: "experiment"),
                variant: try $0.decode(String?.self, forColumn: "variant")
            )
        }
    }

    public func setDebugRequest(_ request: DebugRequest) throws {
        try write { db in
            let stored = try Row.fetchOne(
                db,
                sql: "SELECT variant FROM debug_requests WHERE source = ? AND experiment = ?",
                arguments: [request.source, request.experiment]
            )
            // The same request again changes nothing, so watchers are not woken.
            if let stored, try stored.decode(String?.self, atIndex: 0) == request.variant { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO debug_requests (source, experiment, variant) VALUES (?, ?, ?)",
                arguments: [request.source, request.experiment, request.variant]
            )
            try Self.bumpRevision(db)
        }
    }

    public func removeDebugRequest(source: String, experiment: String) throws {
        try write { db in
            try db.execute(
                sql: "DELETE FROM debug_requests WHERE source = ? AND experiment = ?",
                arguments: [source, experiment]
            )
            if db.changesCount > 0 { try Self.bumpRevision(db) }
        }
    }

    public func removeDebugRequests(source: String?) throws {
        try write { db in
            if let source {
                try db.execute(sql: "DELETE FROM debug_requests WHERE source = ?", arguments: [source])
            } else {
                try db.execute(sql: "DELETE FROM debug_requests")
            }
            if db.changesCount > 0 { try Self.bumpRevision(db) }
        }
    }

    public func applyDebugRequests(_ requests: [DebugRequest], replacing: Bool) throws {
        try write { db in
            let before = try Self.debugRequests(db)
            if replacing { try db.execute(sql: "DELETE FROM debug_requests") }
            let insert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO debug_requests (source, experiment, variant) VALUES (?, ?, ?)"
            )
            for request in requests {
                try insert.execute(arguments: [request.source, request.experiment, request.variant])
            }
            if try Self.debugRequests(db) != before { try Self.bumpRevision(db) }
        }
    }

    public func payload(source: String) throws -> StoredPayload? {
        try read { db in try Self.payload(db, source: source) }
    }

    private static func payload(_ db: Database, source: String) throws -> StoredPayload? {
        try Row.fetchOne(
            db,
            sql: "SELECT data, etag, fetchedAt FROM payloads WHERE source = ?",
            arguments: [source]
        )
        .map {
            StoredPayload(
                data: try $0.decode(Data.self, atIndex: 0),
                etag: try $0.decode(String?.self, atIndex: 1),
                fetchedAt: Date(timeIntervalSince1970: try $0.decode(Double.self, atIndex: 2))
            )
        }
    }

    public func setPayload(_ payload: StoredPayload, source: String) throws {
        try write { db in
            if try Self.payload(db, source: source) == payload { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO payloads (source, data, etag, fetchedAt) VALUES (?, ?, ?, ?)",
                arguments: [source, payload.data, payload.etag, payload.fetchedAt.timeIntervalSince1970]
            )
            try Self.bumpRevision(db)
        }
    }

    public func attributeOverrides() throws -> [String: String] {
        try read(Self.attributeOverrides)
    }

    private static func attributeOverrides(_ db: Database) throws -> [String: String] {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'attributes'") else {
            return [:]
        }
        return (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    public func setAttributeOverrides(_ attributes: [String: String]) throws {
        let text = String(decoding: try JSONEncoder().encode(attributes), as: UTF8.self)
        try write { db in
            if try Self.attributeOverrides(db) == attributes { return }
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('attributes', ?)", arguments: [text])
            try Self.bumpRevision(db)
        }
    }

    public func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
        let digest = Self.digest(of: assignments)
        // Most refreshes change nothing: the digest, read without the write lock, says so.
        let stored = try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'activeDigest'")
        }
        if stored == digest { return ActiveSetChange(entered: [], left: []) }
        return try write { db in
            // Most refreshes change nothing: a digest spares reading every row.
            let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'activeDigest'")
            if stored == digest { return ActiveSetChange(entered: [], left: []) }
            let rows = try Row.fetchCursor(
                db,
                // The value's bytes: GRDB reads text up to its first NUL.
                sql: "SELECT source, experiment, variant, key, CAST(value AS BLOB) FROM active_assignments"
            )
            var old: [Assignment] = []
            old.reserveCapacity(assignments.count)
            while let row = try rows.next() {
                let bytes = try row.decode(Data.self, atIndex: 4)
                guard let value = AssignmentValue(taggedText: String(decoding: bytes, as: UTF8.self)) else { continue }
                old.append(
                    Assignment(
                        key: try row.decode(atIndex: 3),
                        value: value,
                        experiment: try row.decode(atIndex: 1),
                        variant: try row.decode(atIndex: 2),
                        source: try row.decode(atIndex: 0)
                    )
                )
            }
            let change = ActiveSetChange.between(old, assignments)
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('activeDigest', ?)",
                arguments: [digest]
            )
            guard !change.isEmpty else { return change }
            // Write only the difference: one forced variant must not rewrite thousands of rows.
            let delete = try db.cachedStatement(
                sql: "DELETE FROM active_assignments WHERE source = ? AND experiment = ? AND key = ?"
            )
            for assignment in change.left {
                try delete.execute(arguments: [assignment.source, assignment.experiment, assignment.key])
            }
            let insert = try db.cachedStatement(
                sql:
                    "INSERT OR REPLACE INTO active_assignments (source, experiment, variant, key, value) VALUES (?, ?, ?, ?, ?)"
            )
            for assignment in change.entered {
                try insert.execute(arguments: [
                    assignment.source, assignment.experiment, assignment.variant, assignment.key,
                    // As bytes: SQLite's text binding would end at a NUL.
                    Data(assignment.value.taggedText.utf8),
                ])
            }
            try Self.bumpRevision(db)
            return change
        }
    }

    public func revision() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'revision'") ?? 0 }
    }

    /// An order-independent digest of a set of assignments: FNV-1a of each
    /// assignment, summed, with the count.
    static func digest(of assignments: [Assignment]) -> String {
        var sum: UInt64 = 0
        for assignment in assignments {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for field in [
                assignment.source, assignment.experiment, assignment.variant, assignment.key,
                assignment.value.taggedText,
            ] {
                for byte in field.utf8 {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
            }
            sum &+= hash
        }
        return "\(assignments.count):\(String(sum, radix: 16))"
    }

    // MARK: - EventSink

    public func record(_ events: [Event]) throws {
        guard !events.isEmpty else { return }
        try write { db in
            for event in events { try Self.insert(event, db) }
        }
    }

    public func recordOnce(_ event: Event) throws -> Bool {
        try write { db in
            if try Self.seen(event, db) { return false }
            try Self.insert(event, db)
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
            for event in events {
                if event.reason == .displayed, try Self.seen(event, db) { continue }
                try Self.insert(event, db)
                added += 1
            }
            return added
        }
    }

    private static func seen(_ event: Event, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM events
                WHERE device = ? AND experiment = ? AND variant = ? AND reason = ?)
                """,
            arguments: [event.device, event.experiment, event.variant, event.reason.rawValue]
        ) ?? false
    }

    private static func insert(_ event: Event, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO events (time, device, source, experiment, variant, key, value, valueType, reason, forced)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        try statement.execute(
            arguments: [
                event.time, event.device, event.source, event.experiment, event.variant, event.key,
                Self.storedValue(event.value), event.value.boolValue == nil ? nil : "bool", event.reason.rawValue,
                event.forced,
            ])
    }

    // MARK: - EventLog

    public func events(matching query: EventQuery, after id: Int64?, limit: Int) throws -> [RecordedEvent] {
        let (filter, arguments) = Self.whereClause(query)
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.eventColumns) FROM events WHERE id > ?\(filter) ORDER BY id LIMIT ?",
                arguments: [id ?? 0] + arguments + [limit]
            ).map(Self.recordedEvent)
        }
    }

    public func latestEvents(matching query: EventQuery, limit: Int) throws -> [RecordedEvent] {
        let (filter, arguments) = Self.whereClause(query)
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.eventColumns) FROM events WHERE 1\(filter) ORDER BY id DESC LIMIT ?",
                arguments: arguments + [limit]
            ).map(Self.recordedEvent)
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

    /// `AND …` conditions for a query, and their arguments.
    private static func whereClause(_ query: EventQuery) -> (String, StatementArguments) {
        var sql = ""
        var arguments = StatementArguments()
        if let since = query.since {
            sql += " AND time >= ?"
            arguments += [since]
        }
        if !query.reasons.isEmpty {
            sql += " AND reason IN (\(Array(repeating: "?", count: query.reasons.count).joined(separator: ", ")))"
            arguments += StatementArguments(query.reasons.map(\.rawValue))
        }
        if !query.experiments.isEmpty {
            sql +=
                " AND experiment IN (\(Array(repeating: "?", count: query.experiments.count).joined(separator: ", ")))"
            arguments += StatementArguments(query.experiments)
        }
        return (sql, arguments)
    }

    /// An event's value as stored: in its natural SQLite type, but text
    /// holding a NUL as its bytes, as SQLite's text binding would end there.
    private static func storedValue(_ value: AssignmentValue) -> any DatabaseValueConvertible {
        if let text = value.stringValue, text.utf8.contains(0) { return Data(text.utf8) }
        return value
    }

    /// The event table's columns, and the value's bytes: GRDB reads text up
    /// to its first NUL, and a value may hold one.
    private static let eventColumns = "*, CAST(value AS BLOB) AS valueBytes"

    /// An event's value, a boolean where the row says so (SQLite keeps 0 or 1).
    private static func eventValue(_ row: Row) throws -> AssignmentValue {
        var value = try row.decode(AssignmentValue?.self, forColumn: "value") ?? .string("")
        if case .string = value, let bytes = try row.decode(Data?.self, forColumn: "valueBytes") {
            value = .string(String(decoding: bytes, as: UTF8.self))  // text, or bytes stored for a NUL
        }
        guard try row.decode(String?.self, forColumn: "valueType") == "bool", let number = value.numberValue else {
            return value
        }
        return .bool(number != 0)
    }

    /// An event row; a value of an unexpected type (text where a time
    /// belongs, a blob where text does) throws, naming the row, where GRDB's
    /// subscripts would trap.
    private static func recordedEvent(_ row: Row) throws -> RecordedEvent {
        RecordedEvent(
            id: try row.decode(forColumn: "id"),
            event: Event(
                time: try row.decode(forColumn: "time"),
                device: try row.decode(forColumn: "device"),
                source: try row.decode(forColumn: "source"),
                experiment: try row.decode(forColumn: "experiment"),
                variant: try row.decode(forColumn: "variant"),
                key: try row.decode(forColumn: "key"),
                value: try eventValue(row),
                reason: EventReason(rawValue: try row.decode(forColumn: "reason")),
                forced: try row.decode(Bool?.self, forColumn: "forced") ?? false
            )
        )
    }
}
