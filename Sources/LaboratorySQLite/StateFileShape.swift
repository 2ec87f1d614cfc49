internal import GRDB

/// The tables a state file must have, and a check that a file has them.
///
/// The state file is input too: another process, a script or a damaged disk
/// may drop a table, rebuild one without its primary key, put a view in its
/// place or add a trigger. GRDB traps on a table with no unique key, and a
/// trigger or a recursive view can make any statement run for ever, so a
/// file is looked at before anything is read from or written to it, and one
/// that does not match is refused, untouched.
struct StateFileShape: Equatable {
    /// Each table's columns, in order, and its primary key columns.
    var tables: [String: Table]

    struct Table: Equatable {
        var columns: [String]
        var primaryKey: [String]
    }

    /// What the migrations make in the newest version. Written out rather
    /// than read off the migrations run in memory, which would add several
    /// milliseconds to every `lab` start; a test checks it against them
    /// (``built(upTo:)``), so it cannot drift.
    static let expected = StateFileShape(tables: [
        "active_assignments": Table(
            columns: ["source", "experiment", "variant", "key", "value"],
            primaryKey: ["source", "experiment", "key"]
        ),
        "app_wirings": Table(columns: ["app", "hasDebugSource", "pid", "startTicks"], primaryKey: ["app"]),
        "stored_attributes": Table(columns: ["name", "value"], primaryKey: ["name"]),
        "device": Table(columns: ["id", "token"], primaryKey: ["id"]),
        "draws": Table(columns: ["source", "experiment", "variant", "drawnAt"], primaryKey: ["source", "experiment"]),
        "events": Table(
            columns: [
                "id", "time", "device", "source", "experiment", "variant", "key", "value", "reason", "valueType",
                "forced", "tester",
            ],
            primaryKey: ["id"]
        ),
        "file_state": Table(columns: ["revision", "activeDigest", "deviceRevision"], primaryKey: []),
        "forced_variants": Table(
            columns: ["source", "experiment", "scope", "variant", "tester", "forcedAt"],
            primaryKey: ["source", "experiment", "scope"]
        ),
        "payloads": Table(columns: ["source", "data", "etag", "fetchedAt"], primaryKey: ["source"]),
        "stabilization": Table(columns: ["source", "time", "payload"], primaryKey: ["source"]),
        "sticky_buckets": Table(columns: ["source", "key", "document"], primaryKey: ["source", "key"]),
    ])
    // Files of earlier versions are rare: their shapes are read off the migrations when one is opened.
    private static let expectedVersion7 = built(upTo: "file version 7")
    private static let expectedVersion6 = built(upTo: "file version 6")
    private static let expectedVersion5 = built(upTo: "file version 5")
    private static let expectedVersion4 = built(upTo: "file version 4")
    private static let expectedVersion3 = built(upTo: "file version 3")
    private static let expectedVersion2 = built(upTo: "file version 2")

    /// The shape of a file of `version`, as the release that wrote it left it;
    /// `nil` for a version no release wrote.
    static func expected(version: Int) -> StateFileShape? {
        switch version {
        case StateSchema.version: return expected
        case 7: return expectedVersion7
        case 6: return expectedVersion6
        case 5: return expectedVersion5
        case 4: return expectedVersion4
        case 3: return expectedVersion3
        case 2: return expectedVersion2
        case 1:
            // Version 1 is version 2 before events said which values are booleans and which were forced.
            var shape = expectedVersion2
            shape.tables["events"]?.columns.removeAll { $0 == "valueType" || $0 == "forced" }
            return shape
        default: return nil
        }
    }

    /// What the migrations make up to `migration` (all of them: `nil`), run in memory.
    static func built(upTo migration: String?) -> StateFileShape {
        do {
            let queue = try DatabaseQueue()
            if let migration {
                try StateSchema.migrator.migrate(queue, upTo: migration)
            } else {
                try StateSchema.migrator.migrate(queue)
            }
            return try queue.read { try StateFileShape(reading: $0) }
        } catch {
            // The migrations run on every test of the store: they cannot fail here unless SQLite itself is broken.
            preconditionFailure("the state file's migrations do not run in memory: \(error)")
        }
    }

    init(tables: [String: Table]) {
        self.tables = tables
    }

    init(reading db: Database) throws {
        var tables: [String: Table] = [:]
        for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        where !name.hasPrefix("sqlite_") && name != "grdb_migrations" {
            let columns = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?)", arguments: [name])
            tables[name] = Table(
                columns: columns.map { $0["name"] },
                primaryKey: columns.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
                    .map { $0["name"] }
            )
        }
        self.tables = tables
    }

    /// What is wrong with a file's schema objects that no migration makes:
    /// views and triggers (each statement could run anything), checked before
    /// a migration reads the file.
    static func foreignObjects(_ db: Database) throws -> String? {
        let objects = try Row.fetchAll(
            db,
            sql: "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY type, name LIMIT 1"
        )
        guard let object = objects.first else { return nil }
        let type: String = object["type"]
        let name: String = object["name"]
        return "it has a \(type) \"\(name)\" that Laboratory does not make"
    }

    /// What differs from `expected`; `nil` when it matches. More tables or
    /// columns than expected are fine; a missing one, or another primary key, is not.
    func mismatch(against expected: StateFileShape) -> String? {
        for name in expected.tables.keys.sorted() {
            let want = expected.tables[name]!
            guard let have = tables[name] else { return "its table \(name) is missing" }
            for column in want.columns where !have.columns.contains(column) {
                return "its table \(name) has no column \(column)"
            }
            if have.primaryKey != want.primaryKey {
                let key = have.primaryKey.isEmpty ? "none" : have.primaryKey.joined(separator: ", ")
                return
                    "its table \(name) has the primary key (\(key)), not (\(want.primaryKey.joined(separator: ", ")))"
            }
        }
        return nil
    }
}
