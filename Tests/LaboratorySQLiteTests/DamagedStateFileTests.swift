import Foundation
import GRDB
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratorySQLite

/// A state file another process has damaged is refused with the reason, and
/// left byte for byte as it was: never trapped on, never hung on, never
/// "repaired" into something else.
@Suite struct DamagedStateFileTests {
    /// The test's state files, removed when it ends.
    private let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("lab-damaged") }

    /// A new state file with a forced variant and an event, then `damage` done to it.
    private func damagedFile(_ damage: String) throws -> String {
        let folder = try scratch.newFolder()
        let path = folder + "/state.sqlite"
        let store = try SQLiteStateStore(path: path)
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "E", variant: "B"))
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: damage) }
        try queue.close()
        return path
    }

    private func contents(_ path: String) throws -> [Data] {
        [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
    }

    @Test(arguments: [
        ("DROP TABLE forced_variants", "its table forced_variants is missing"),
        (
            "DROP TABLE forced_variants; CREATE TABLE forced_variants "
                + "(source TEXT, experiment TEXT, scope TEXT, variant TEXT, tester TEXT, forcedAt REAL)",
            "its table forced_variants has the primary key (none), not (source, experiment, scope)"
        ),
        (
            "DROP TABLE draws; CREATE VIEW draws AS SELECT 1 AS source",
            "it has a view \"draws\" that Laboratory does not make"
        ),
        (
            "CREATE TRIGGER spin AFTER INSERT ON events BEGIN SELECT count(*) FROM events a, events b, events c; END",
            "it has a trigger \"spin\""
        ),
        (
            "CREATE VIEW forever AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n",
            "it has a view \"forever\""
        ),
        ("DROP TABLE grdb_migrations", "its record of migrations (grdb_migrations) does not match its version 8"),
        ("ALTER TABLE events DROP COLUMN valueType", "its table events has no column valueType"),
    ])
    func aDamagedFileIsRefusedAndLeftAsItWas(_ damage: String, _ reason: String) throws {
        let path = try damagedFile(damage)
        let before = try contents(path)
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteStateStore(path: path) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.contains("left untouched") == true)
        // Twice: a refused file is not rewritten into one that passes, or fails otherwise.
        let again = #expect(throws: SQLiteStoreError.self) { try SQLiteStateStore(path: path) }
        #expect(again == error)
        #expect(try contents(path) == before)
    }

    @Test func anIntactFilePassesTheCheckAndOpensAsBefore() throws {
        let path = try damagedFile("SELECT 1")
        let store = try SQLiteStateStore(path: path)
        #expect(try store.forcedVariants().count == 1)
        #expect(StateFileShape.expected.tables["forced_variants"]?.primaryKey == ["source", "experiment", "scope"])
    }

    /// The newest shape is written out for speed; it must be what the migrations make.
    @Test func theWrittenOutShapeIsWhatTheMigrationsMake() {
        #expect(StateFileShape.expected == StateFileShape.built(upTo: nil))
    }

    /// The state fuzzer's find: a file of the first release whose `events.source`
    /// was renamed was migrated, then trapped GRDB on the first read of events.
    @Test func aFileOfAnEarlierReleaseIsCheckedBeforeItIsMigrated() throws {
        let folder = try scratch.newFolder()
        let path = folder + "/state.sqlite"
        try FileManager.default.copyItem(atPath: StateFileUpgradeTests.fixture, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ALTER TABLE events RENAME COLUMN source TO origin")
        }
        try queue.close()
        let before = try contents(path)
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteStateStore(path: path) }
        #expect(
            error?.description.contains("its table events has no column source") == true,
            "\(String(describing: error))"
        )
        #expect(try contents(path) == before)
    }

    /// The state fuzzer's second find: GRDB's date parser traps on a byte above
    /// 0x7F in a time's text, so such a time is reported with its row instead.
    @Test func aTimeWithABytePastASCIIIsReportedNotTrappedOn() throws {
        let path = try damagedFile(
            """
            INSERT INTO events (time, device, source, experiment, variant, key, value, reason)
                VALUES (CAST(x'323032362d31312d32332031323a32373a33342ec13938' AS TEXT), 'd', 'Local', 'E', 'V', 'k', 1, 'displayed');
            INSERT INTO stabilization (source, time) VALUES ('Local', CAST(x'323032362d31312d3233203132ff' AS TEXT))
            """
        )
        let store = try SQLiteStateStore(path: path)
        let events = #expect(throws: SQLiteStoreError.self) { try store.latestEvents(limit: 10) }
        #expect(events?.description.contains("not a time (row id:1)") == true, "\(String(describing: events))")
        let stabilization = #expect(throws: SQLiteStoreError.self) { try store.stabilization(source: "Local") }
        #expect(stabilization?.description.contains("column time of table stabilization") == true)
    }
}
