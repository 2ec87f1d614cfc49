internal import GRDB

/// The tables of a state file, as GRDB's `DatabaseMigrator` builds them.
///
/// The file is marked with `PRAGMA application_id`, so a SQLite file of
/// another program is recognised and never written to; `PRAGMA user_version`
/// says which version of the file this is, so an older release refuses a
/// newer file by its version alone. Each migration runs in one immediate
/// transaction; when two processes open a new file at the same moment and
/// one migrates it first, the other finds the work done.
enum StateSchema {
    /// "LAB1" as a big-endian 32-bit number.
    static let applicationID: Int32 = 0x4C41_4231
    /// 1: the first release; 2: events say which values are booleans
    /// (`valueType`) and which variants a person forced (`forced`); 3: one
    /// table per kind of row (no `meta` key-value table, sticky buckets and the
    /// payload kept at stabilization in their own tables), tables named as the
    /// vocabulary names them (`draws`, `forced_variants`); 4: apps record
    /// whether their wiring applies forced variants (`app_wirings`); 5: a
    /// forced variant has a scope (whom it applies to), a tester (who set it)
    /// and a time, and an experiment holds one per scope; events say which
    /// tester had forced their variant; 6: an app's wiring names the process
    /// that recorded it (`pid`, `startTicks`), so a warning leaves out apps that quit;
    /// 7: one word per concept: the attributes an overrides import stores are
    /// `stored_attributes`, and the variant of a GrowthBook force or rollout
    /// rule's experiment that stands for the rule's value is `RuleValue`
    /// (it was `Forced`, which names what a person does); 8: `file_state`
    /// keeps a `deviceRevision` that only writes to the device, its draws and
    /// stabilizations raise, so local sources settle their draws again only
    /// when those changed.
    static let version = 8

    /// The migrations, oldest first. The first is the schema of file version
    /// 2 as releases before the migrator wrote it: it creates it in a new
    /// file, and takes a file those releases made (version 1 or 2, with no
    /// migrations table) to it in place. Later changes are new migrations.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("file version 2") { db in
            if try db.tableExists("meta") {
                let columns = try db.columns(in: "events").map(\.name)
                if !columns.contains("forced") { try upgradeToVersion2(db) }
            } else {
                try createVersion1(db)
                try upgradeToVersion2(db)
            }
            try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        migrator.registerMigration("file version 3") { db in
            try upgradeToVersion3(db)
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        migrator.registerMigration("file version 4") { db in
            try db.execute(
                sql: """
                    -- Whether each app that opened the file has a debug source, so forcing reaches it.
                    CREATE TABLE app_wirings (
                        app TEXT PRIMARY KEY NOT NULL,
                        hasDebugSource INTEGER NOT NULL CHECK (hasDebugSource IN (0, 1))
                    );
                    PRAGMA user_version = 4;
                    """
            )
        }
        migrator.registerMigration("file version 5") { db in
            // SQLite cannot change a primary key in place: the table is built anew and the rows moved.
            try db.execute(
                sql: """
                    CREATE TABLE forced_variants_scoped (
                        source TEXT NOT NULL,
                        experiment TEXT NOT NULL,
                        scope TEXT NOT NULL, -- Scope.storedForm: name=value pairs, sorted; empty for everyone
                        variant TEXT, -- NULL forces the experiment inactive
                        tester TEXT, -- who set it; NULL for rows of earlier releases
                        forcedAt REAL, -- Unix time; NULL for rows of earlier releases
                        PRIMARY KEY (source, experiment, scope)
                    );
                    INSERT INTO forced_variants_scoped (source, experiment, scope, variant)
                        SELECT source, experiment, '', variant FROM forced_variants;
                    DROP TABLE forced_variants;
                    ALTER TABLE forced_variants_scoped RENAME TO forced_variants;
                    -- Who had forced the variant an event is about; NULL when nobody did or it is not known.
                    ALTER TABLE events ADD COLUMN tester TEXT;
                    PRAGMA user_version = 5;
                    """
            )
        }
        migrator.registerMigration("file version 6") { db in
            try db.execute(
                sql: """
                    -- The process that recorded the wiring: its id and start time (clock ticks after boot).
                    ALTER TABLE app_wirings ADD COLUMN pid INTEGER;
                    ALTER TABLE app_wirings ADD COLUMN startTicks INTEGER;
                    PRAGMA user_version = 6;
                    """
            )
        }
        migrator.registerMigration("file version 7") { db in
            // GrowthBook's rule experiments are named `feature: force` or `feature: rollout` (with a
            // number after a second one). Catalog names are UpperCamelCase (`lab check` warns about
            // others), so a catalog experiment so named with a variant `Forced` is not expected.
            try db.execute(
                sql: """
                    ALTER TABLE attribute_overrides RENAME TO stored_attributes;
                    UPDATE forced_variants SET variant = 'RuleValue'
                        WHERE variant = 'Forced' AND (
                            experiment LIKE '%: force' OR experiment LIKE '%: force %'
                            OR experiment LIKE '%: rollout' OR experiment LIKE '%: rollout %'
                        );
                    PRAGMA user_version = 7;
                    """
            )
        }
        migrator.registerMigration("file version 8") { db in
            // Starts at the whole file's revision: any number works, as readers compare it for change only.
            try db.execute(
                sql: """
                    ALTER TABLE file_state ADD COLUMN deviceRevision INTEGER NOT NULL DEFAULT 0;
                    UPDATE file_state SET deviceRevision = revision;
                    PRAGMA user_version = 8;
                    """
            )
        }
        return migrator
    }()

    /// Gives every kind of row its own table, moving what version 2 kept as
    /// key-value rows (`meta`) and as payload rows under made-up sources
    /// (`name#sticky`, `name#stabilized`).
    private static func upgradeToVersion3(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE choices RENAME TO draws;
                ALTER TABLE draws RENAME COLUMN madeAt TO drawnAt;
                ALTER TABLE debug_requests RENAME TO forced_variants;

                -- The one device of the file; its token decides token ranges.
                CREATE TABLE device (
                    id TEXT PRIMARY KEY NOT NULL,
                    token NOT NULL -- a number in [0, 1); read as stored, so damage is reported
                );
                INSERT INTO device (id, token)
                    SELECT d.value, t.value FROM meta d JOIN meta t ON d.key = 'device' AND t.key = 'token';

                -- One row: what every write changes, and the digest of the active set.
                CREATE TABLE file_state (
                    revision INTEGER NOT NULL,
                    activeDigest TEXT
                );
                INSERT INTO file_state (revision, activeDigest) VALUES (
                    coalesce((SELECT value FROM meta WHERE key = 'revision'), 0),
                    (SELECT value FROM meta WHERE key = 'activeDigest')
                );

                CREATE TABLE attribute_overrides (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                INSERT INTO attribute_overrides (name, value)
                    SELECT j.key, j.value FROM meta m, json_each(m.value) j
                    WHERE m.key = 'attributes' AND json_valid(m.value) AND j.type = 'text';
                DROP TABLE meta;

                -- A remote source's payload as it was when the device was stabilized.
                ALTER TABLE stabilization ADD COLUMN payload BLOB;
                UPDATE stabilization SET payload =
                    (SELECT data FROM payloads WHERE payloads.source = stabilization.source || '#stabilized');

                -- GrowthBook sticky-bucket documents, by source and `attribute||value`.
                CREATE TABLE sticky_buckets (
                    source TEXT NOT NULL,
                    key TEXT NOT NULL,
                    document TEXT NOT NULL, -- JSON, as the SDKs store it
                    PRIMARY KEY (source, key)
                );
                INSERT INTO sticky_buckets (source, key, document)
                    SELECT substr(p.source, 1, length(p.source) - 7), j.key, j.value
                    FROM payloads p, json_each(CAST(p.data AS TEXT)) j
                    WHERE p.source LIKE '%#sticky' AND json_valid(CAST(p.data AS TEXT)) AND j.type = 'object';
                DELETE FROM payloads WHERE source LIKE '%#sticky' OR source LIKE '%#stabilized';
                """
        )
    }

    /// Whether the file needs migrating; throws when it is not ours to touch
    /// (another program's, or a newer release's).
    @discardableResult
    static func check(_ db: Database, path: String) throws -> Bool {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if applicationID == Self.applicationID {
            if let foreign = try StateFileShape.foreignObjects(db) {
                throw SQLiteStoreError.damaged(path: path, detail: foreign)
            }
            if try userVersion > version || migrator.hasBeenSuperseded(db) {
                throw SQLiteStoreError.newerVersion(path: path, version: userVersion)
            }
            let applied = try db.tableExists("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
            // Releases before the migrator wrote versions 1 and 2 with no record of migrations;
            // from version 3 on, the record must say what the version says.
            let expected = migrator.migrations.prefix(max(0, userVersion - 1))
            if userVersion >= 3, applied != Set(expected) {
                throw SQLiteStoreError.damaged(
                    path: path,
                    detail: "its record of migrations (grdb_migrations) does not match its version \(userVersion)"
                )
            }
            // Checked before migrating too: a migration reads the tables of the version it upgrades.
            guard let expected = StateFileShape.expected(version: userVersion) else {
                throw SQLiteStoreError.damaged(
                    path: path,
                    detail: "its version \(userVersion) is not one Laboratory wrote"
                )
            }
            if let mismatch = try StateFileShape(reading: db).mismatch(against: expected) {
                throw SQLiteStoreError.damaged(path: path, detail: mismatch)
            }
            return try !migrator.hasCompletedMigrations(db)
        }
        // A process creating the file right now may have made GRDB's migrations table and nothing else yet.
        let hasTables = try !tableNames(db).filter { $0 != "grdb_migrations" }.isEmpty
        if applicationID != 0 || userVersion != 0 || hasTables {
            throw SQLiteStoreError.foreignDatabase(path: path)
        }
        return true
    }

    /// Runs the migrations the file lacks.
    static func migrate(_ queue: DatabaseQueue, path: String) throws {
        do {
            try migrator.migrate(queue)
        } catch {
            // Another process opening the same file may have migrated it
            // first, making ours fail (a table or column that now exists).
            let done = try queue.read { db in try migrator.hasCompletedMigrations(db) }
            guard done else { throw error }
        }
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
