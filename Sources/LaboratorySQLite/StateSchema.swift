import GRDB

/// The tables of a state file, and how a fresh or older file gets them.
///
/// The version lives in `PRAGMA user_version` and the file is marked with
/// `PRAGMA application_id`, so a SQLite file of another program is recognised
/// and never written to. Creation runs in one immediate transaction, so two
/// processes opening a fresh file at the same moment cannot both create it.
enum StateSchema {
    /// "LAB1" as a big-endian 32-bit number.
    static let applicationID: Int32 = 0x4C41_4231
    /// 1: the first release; 2: events say which values are booleans
    /// (`valueType`) and which variants a person forced (`forced`).
    static let version = 2

    /// Whether the file needs creating; throws when it is not ours to touch.
    @discardableResult
    static func check(_ db: Database, path: String) throws -> Bool {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if applicationID == Self.applicationID {
            if userVersion > version { throw SQLiteStoreError.newerVersion(path: path, version: userVersion) }
            return userVersion < version
        }
        let hasTables = try !tableNames(db).isEmpty
        if applicationID != 0 || userVersion != 0 || hasTables {
            throw SQLiteStoreError.foreignDatabase(path: path)
        }
        return true
    }

    /// Creates the tables if the file is fresh; checks again inside the
    /// write transaction, as another process may have created them meanwhile.
    static func prepare(_ db: Database, path: String) throws {
        guard try check(db, path: path) else { return }
        // Each step takes the file one version up; a fresh file takes them all.
        let current = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if current < 1 { try createVersion1(db) }
        if current < 2 { try upgradeToVersion2(db) }
        try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// SQLite stores booleans as 0 and 1: the type is kept beside the value,
    /// and whether QA forced the variant beside the event
    /// so they read back as booleans. Rows from version 1 have none; readers
    /// that know the catalog restore theirs (``RecordedEvent/restoringBoolean(from:)``).
    private static func upgradeToVersion2(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE events ADD COLUMN valueType TEXT")
        // Rows from before cannot say; they count as not forced.
        try db.execute(sql: "ALTER TABLE events ADD COLUMN forced INTEGER NOT NULL DEFAULT 0")
    }

    private static func tableNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    }

    private static func createVersion1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value NOT NULL
                );
                CREATE TABLE choices (
                    source TEXT NOT NULL,
                    experiment TEXT NOT NULL,
                    variant TEXT NOT NULL,
                    madeAt REAL NOT NULL, -- Unix time: read back for thousands of rows at once
                    PRIMARY KEY (source, experiment)
                );
                CREATE TABLE stabilization (
                    source TEXT PRIMARY KEY NOT NULL,
                    time DATETIME NOT NULL
                );
                CREATE TABLE debug_requests (
                    source TEXT NOT NULL,
                    experiment TEXT NOT NULL,
                    variant TEXT,
                    PRIMARY KEY (source, experiment)
                );
                CREATE TABLE active_assignments (
                    source TEXT NOT NULL,
                    experiment TEXT NOT NULL,
                    variant TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (source, experiment, key)
                );
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    time DATETIME NOT NULL,
                    device TEXT NOT NULL,
                    source TEXT NOT NULL,
                    experiment TEXT NOT NULL,
                    variant TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value,
                    reason TEXT NOT NULL
                );
                CREATE INDEX events_by_exposure ON events (device, experiment, variant, reason);
                CREATE TABLE payloads (
                    source TEXT PRIMARY KEY NOT NULL,
                    data BLOB NOT NULL,
                    etag TEXT,
                    fetchedAt REAL NOT NULL
                );
                INSERT INTO meta (key, value) VALUES ('revision', 0);
                """
        )
    }
}
