import Foundation
import GRDB
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratorySQLite

/// State files made by earlier releases open and upgrade in place, losing
/// nothing; `Fixtures/state-v1.sqlite` was made by the first release (`lab
/// assignments`, `lab force ButtonColor ButtonColorBlue`, `lab report
/// profileShowsBadges --reason displayed` on the demo catalog).
@Suite struct StateFileUpgradeTests {
    /// The test's copies of state files, removed when it ends.
    private let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("lab-upgrade") }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/state-v1.sqlite").path

    /// `Fixtures/state-v2.sqlite` was made by release 0.5, the last before the
    /// migrator (`lab assignments`, `lab force ButtonColor ButtonColorDarkGray`,
    /// `lab report profileShowsBadges --reason displayed` on the demo catalog).
    static let fixtureVersion2 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/state-v2.sqlite").path

    /// A copy of a fixture, as opening upgrades it.
    private func copy(_ fixture: String = fixture) throws -> String {
        let folder = try scratch.newFolder()
        try FileManager.default.copyItem(atPath: fixture, toPath: folder + "/state.sqlite")
        return folder + "/state.sqlite"
    }

    /// A file as a release that stopped at `migration` left it, holding `rows` (SQL inserts).
    private func file(upTo migration: String, rows: String) throws -> String {
        let folder = try scratch.newFolder()
        let queue = try DatabaseQueue(path: folder + "/state.sqlite")
        try StateSchema.migrator.migrate(queue, upTo: migration)
        try queue.write { try $0.execute(sql: rows) }
        return folder + "/state.sqlite"
    }

    /// The file's version (`PRAGMA user_version`).
    private func version(_ path: String) throws -> Int? {
        try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
    }

    private func migrations(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
    }

    @Test func aFileOfTheLastReleaseBeforeTheMigratorJoinsItAndKeepsEverything() throws {
        let path = try copy(Self.fixtureVersion2)
        let store = try SQLiteStateStore(path: path)
        #expect(try migrations(path) == StateSchema.migrator.migrations)
        #expect(try version(path) == StateSchema.version)
        let device = try store.device(candidate: Device(id: "new", token: ActiveExperimentsToken(0.5)))
        #expect(device.id == "dbb8e2f8-d20e-4209-870d-e92324c476be")
        #expect(
            try store.forcedVariants() == [
                ForcedVariant(source: "Local", experiment: "ButtonColor", variant: "ButtonColorDarkGray")
            ]
        )
        #expect(try store.draws(source: "Local")["ButtonColor"]?.variant == "ButtonColorDarkGray")
        let events = try store.latestEvents(limit: 100)
        #expect(events.count == 5)
        // Booleans were typed in version 2 already: no catalog is needed to read them.
        let badge = try #require(events.first { $0.event.key == "profileShowsBadges" && $0.event.reason == .displayed })
        #expect(badge.event.value == true)
        // Once migrated, opening again writes nothing: the revision and the migrations stay.
        let revision = try store.revision()
        _ = try SQLiteStateStore(path: path)
        #expect(try store.revision() == revision)
        #expect(try migrations(path) == StateSchema.migrator.migrations)
    }

    /// Version 5 gives forced variants a scope, a tester and a time; a
    /// version 4 file's forced variants become everyone's, set by nobody known.
    @Test func version5KeepsEveryForcedVariantAsEveryones() throws {
        let path = try file(
            upTo: "file version 4",
            rows: """
                INSERT INTO forced_variants (source, experiment, variant) VALUES
                    ('Local', 'ButtonColor', 'ButtonColorBlue'), ('Local', 'ProfileRedesign', NULL)
                """
        )
        let store = try SQLiteStateStore(path: path)
        #expect(try version(path) == StateSchema.version)
        #expect(
            try store.forcedVariants() == [
                ForcedVariant(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue"),
                ForcedVariant(source: "Local", experiment: "ProfileRedesign", variant: nil),
            ]
        )
        // Now one per scope: a scoped one sits beside everyone's.
        let scoped = ForcedVariant(
            source: "Local",
            experiment: "ButtonColor",
            variant: "ButtonColorDarkGray",
            scope: Scope(attributes: ["id": "qa-phone-7"]),
            tester: "ana",
            forcedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        try store.setForcedVariant(scoped)
        #expect(try store.forcedVariants().count == 3)
        #expect(try store.forcedVariants().contains(scoped))
    }

    /// Version 7 renames two things to the vocabulary's words: the stored
    /// attributes keep their rows under their new table name, and a GrowthBook
    /// rule experiment forced to `Forced` is forced to `RuleValue`, while a
    /// catalog experiment's variant of that name stays.
    @Test func version7RenamesStoredAttributesAndTheRuleVariant() throws {
        let path = try file(
            upTo: "file version 6",
            rows: """
                INSERT INTO attribute_overrides (name, value) VALUES ('userId', 'u-42');
                INSERT INTO forced_variants (source, experiment, scope, variant) VALUES
                    ('GrowthBook', 'banner: force', '', 'Forced'),
                    ('GrowthBook', 'banner: rollout 2', 'id=qa-phone-7', 'Forced'),
                    ('GrowthBook', 'checkout: force', '', 'Default'),
                    ('Local', 'Launch', '', 'Forced')
                """
        )
        let store = try SQLiteStateStore(path: path)
        #expect(try version(path) == StateSchema.version)
        #expect(try store.storedAttributes() == ["userId": "u-42"])
        let variants = Dictionary(uniqueKeysWithValues: try store.forcedVariants().map { ($0.experiment, $0.variant) })
        #expect(
            variants == [
                "banner: force": "RuleValue", "banner: rollout 2": "RuleValue", "checkout: force": "Default",
                "Launch": "Forced",
            ]
        )
    }

    /// Version 8 keeps a revision of the device's part apart, starting at the
    /// file's revision; from then on a force moves only the file's.
    @Test func version8KeepsADeviceRevisionApart() throws {
        let path = try file(
            upTo: "file version 7",
            rows: """
                UPDATE file_state SET revision = 41;
                INSERT INTO draws (source, experiment, variant, drawnAt) VALUES ('Local', 'Launch', 'On', 0)
                """
        )
        let store = try SQLiteStateStore(path: path)
        #expect(try version(path) == StateSchema.version)
        #expect(try store.revision() == 41 && store.deviceRevision() == 41)
        #expect(try store.draws(source: "Local")["Launch"]?.variant == "On")
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "Launch", variant: "Off"))
        #expect(try store.revision() == 42 && store.deviceRevision() == 41)
        try store.stabilize(source: "Local", at: Date())
        #expect(try store.revision() == 43 && store.deviceRevision() == 42)
    }

    /// Version 2 kept attributes, sticky buckets and the stabilized payload as
    /// key-value rows; version 3 gives each its table and moves them there.
    @Test func version3MovesKeyValueRowsIntoTheirOwnTables() throws {
        let path = try copy(Self.fixtureVersion2)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO meta (key, value) VALUES ('attributes', '{"userId":"qa-7","country":"NZ"}');
                    INSERT INTO payloads (source, data, etag, fetchedAt) VALUES
                        ('GrowthBook#sticky', CAST(? AS BLOB), NULL, 0),
                        ('GrowthBook#stabilized', CAST('{"features":{}}' AS BLOB), '"v1"', 0);
                    INSERT INTO stabilization (source, time) VALUES ('GrowthBook', ?);
                    """,
                arguments: [
                    #"{"id||u1":{"attributeName":"id","attributeValue":"u1","assignments":{"e__0":"1"}}}"#, time,
                ]
            )
        }
        let store = try SQLiteStateStore(path: path)
        #expect(try store.storedAttributes() == ["userId": "qa-7", "country": "NZ"])
        let sticky = try store.stickyBuckets(source: "GrowthBook")
        #expect(sticky.keys.sorted() == ["id||u1"])
        #expect(sticky["id||u1"]?.contains(#""e__0":"1""#) == true)
        #expect(try store.stabilization(source: "GrowthBook") == time)
        #expect(try store.stabilizedPayload(source: "GrowthBook") == Data(#"{"features":{}}"#.utf8))
        #expect(try store.payload(source: "GrowthBook#sticky") == nil)
        #expect(try store.payload(source: "GrowthBook#stabilized") == nil)
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(!tables.contains("meta") && !tables.contains("choices") && !tables.contains("debug_requests"))
        #expect(tables.contains("draws") && tables.contains("forced_variants") && tables.contains("device"))
    }

    @Test func aNewFileHasEveryMigrationAndAFileWithAnUnknownOneIsRefused() throws {
        let path = try copy().replacingOccurrences(of: "state.sqlite", with: "fresh.sqlite")
        _ = try SQLiteStateStore(path: path)
        #expect(try migrations(path) == StateSchema.migrator.migrations)
        // A later release added a migration this one does not know: the file is newer, and left alone.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('from the future')")
        }
        #expect {
            _ = try SQLiteStateStore(path: path)
        } throws: { error in
            String(describing: error).contains("newer")
        }
        #expect(try migrations(path).contains("from the future"))
    }

    /// The README and the state file's article name the version this release writes.
    @Test func theDocsNameThisFileVersion() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for (document, words) in [
            ("README.md", "the file version, \(StateSchema.version) in this release"),
            ("Sources/Laboratory/Laboratory.docc/TheStateFile.md", "version, \(StateSchema.version) in this release"),
        ] {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            #expect(
                text.replacingOccurrences(of: "\n", with: " ").contains(words),
                "\(document) should say \"\(words)\""
            )
        }
    }

    @Test func aVersion1FileUpgradesInPlaceAndKeepsEverything() throws {
        let path = try copy()
        let store = try SQLiteStateStore(path: path)
        #expect(try version(path) == StateSchema.version)
        let device = try store.device(candidate: Device(id: "new", token: ActiveExperimentsToken(0.5)))
        #expect(device.id == "36398e4a-84a9-48c3-9864-688594dc80da")
        #expect(
            try store.forcedVariants() == [
                ForcedVariant(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")
            ]
        )
        #expect(try store.draws(source: "Local").count == 5)
        #expect(try store.draws(source: "Local")["ButtonColor"]?.variant == "ButtonColorBlue")
        let events = try store.latestEvents(limit: 100)
        #expect(events.count == 8)
        // A boolean from version 1 reads as 0 until a catalog says what it was…
        let badge = try #require(events.first { $0.event.key == "profileShowsBadges" && $0.event.reason == .displayed })
        #expect(badge.event.value == 0)
        let experiment = Experiment(
            name: "ProfileRedesign",
            keys: ["profileShowsBadges"],
            variants: [
                Variant(name: "Control", assignments: ["profileShowsBadges": false]),
                Variant(name: "Badges", assignments: ["profileShowsBadges": true]),
            ],
            baseline: "Control"
        )
        #expect(
            badge.restoringBoolean(from: [ExperimentID(source: "Local", name: "ProfileRedesign"): experiment]).event
                .value == false
        )
        // …a number key stays a number, and a new boolean row keeps its type.
        let count = try #require(events.first { $0.event.key == "onboardingPageCount" })
        #expect(
            count.restoringBoolean(from: [ExperimentID(source: "Local", name: "ProfileRedesign"): experiment]).event
                .value == 3
        )
        try store.record([Event(badge.event, value: true)])
        #expect(try store.latestEvents(limit: 1).first?.event.value == true)
        // Opening again changes nothing.
        _ = try SQLiteStateStore(path: path)
        #expect(try SQLiteStateStore(path: path).latestEvents(limit: 100).count == 9)
    }

    @Test func booleansKeepTheirTypeInAFreshFile() throws {
        let path = try copy().replacingOccurrences(of: "state.sqlite", with: "fresh.sqlite")
        let store = try SQLiteStateStore(path: path)
        let event = Event(
            time: Date(timeIntervalSince1970: 1_800_000_000),
            device: "d",
            source: "Local",
            experiment: "E",
            variant: "V",
            key: "flag",
            value: false,
            reason: .displayed
        )
        try store.record([event, Event(event, value: 1), Event(event, value: true)])
        #expect(try store.events(matching: EventQuery(), after: nil, limit: 10).map(\.event.value) == [false, 1, true])
    }
}

extension Event {
    /// The same event with another value.
    fileprivate init(_ event: Event, value: AssignmentValue) {
        self = event
        self.value = value
    }
}
