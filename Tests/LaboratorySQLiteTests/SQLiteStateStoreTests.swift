import Foundation
import GRDB
import GrowthBook
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratorySQLite

@Suite struct SQLiteStateStoreTests {
    /// The test's files, removed when it ends.
    private let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder("lab-sqlite") }

    /// A fresh folder for one test's files.
    private func folder() throws -> String { try scratch.newFolder() }

    private let candidate = Device(id: "first", token: ActiveExperimentsToken(0.25))

    @Test func createsAPrivateWALFileInNewFolders() throws {
        let path = try folder() + "/nested/state.sqlite"
        let store = try SQLiteStateStore(path: path)
        _ = try store.device(candidate: candidate)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let journal = try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test func keepsTheDeviceAcrossOpenings() throws {
        let path = try folder() + "/state.sqlite"
        #expect(try SQLiteStateStore(path: path).device(candidate: candidate) == candidate)
        let other = Device(id: "second", token: ActiveExperimentsToken(0.9))
        #expect(try SQLiteStateStore(path: path).device(candidate: other) == candidate)
    }

    @Test func refusesAFileThatIsNotADatabaseAndLeavesItAlone() throws {
        let path = try folder() + "/notes.txt"
        let text = Data("these are my notes, not a database\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: SQLiteStoreError.notADatabase(path: path)) { try SQLiteStateStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func refusesAnotherProgramsDatabaseAndLeavesItAlone() throws {
        let path = try folder() + "/other.sqlite"
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE accounts (id INTEGER)") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: SQLiteStoreError.foreignDatabase(path: path)) { try SQLiteStateStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func reportsACorruptFileWithItsPath() throws {
        let path = try folder() + "/state.sqlite"
        _ = try SQLiteStateStore(path: path).device(candidate: candidate)
        // Keep the header, scribble over the schema page.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 100..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        do {
            _ = try SQLiteStateStore(path: path).device(candidate: candidate)
            Issue.record("expected an error")
        } catch let error as SQLiteStoreError {
            #expect(error.description.hasPrefix(path + ":"))
        }
    }

    @Test func resolvesChoicesAndForgetsUnlistedExperiments() throws {
        let store = try SQLiteStateStore(path: try folder() + "/state.sqlite")
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try store.settleDraws(source: "Local", experiments: ["A", "B"], at: time) { name, _ in
            .choose(name + "1")
        }
        #expect(first.mapValues(\.variant) == ["A": "A1", "B": "B1"])
        #expect(first["A"]?.drawnAt == time)
        let second = try store.settleDraws(source: "Local", experiments: ["A"], at: time) { _, stored in
            #expect(stored?.variant == "A1")
            return .keep
        }
        #expect(second.keys.sorted() == ["A"])
        #expect(try store.draws(source: "Local").keys.sorted() == ["A"])
    }

    @Test func revisionMovesOnlyWhenSomethingChanges() throws {
        let store = try SQLiteStateStore(path: try folder() + "/state.sqlite")
        let start = try store.revision()
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "E", variant: "B"))
        let afterRequest = try store.revision()
        #expect(afterRequest > start)
        try store.removeForcedVariant(source: "Local", experiment: "Missing", scope: .everyone)
        #expect(try store.revision() == afterRequest)
        _ = try store.settleDraws(source: "Local", experiments: ["E"], at: Date()) { _, _ in .keep }
        #expect(try store.revision() == afterRequest)
    }

    @Test func swapsTheActiveSetKeepingValueTypes() throws {
        let store = try SQLiteStateStore(path: try folder() + "/state.sqlite")
        let on = Assignment(key: "on", value: true, experiment: "E", variant: "V", source: "Local")
        let size = Assignment(key: "size", value: 12, experiment: "E", variant: "V", source: "Local")
        #expect(try store.swapActiveAssignments([on, size]).entered == [on, size])
        #expect(try store.swapActiveAssignments([on, size]).isEmpty)
        let change = try store.swapActiveAssignments([on])
        #expect(change.left == [size] && change.entered.isEmpty)
    }

    @Test func recordsEventsAndDisplayedOnce() throws {
        let store = try SQLiteStateStore(path: try folder() + "/state.sqlite")
        let assignment = Assignment(key: "color", value: "blue", experiment: "E", variant: "V", source: "Local")
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let displayed = Event(assignment, reason: .displayed, device: "d", time: time)
        #expect(try store.recordOnce(displayed))
        #expect(try !store.recordOnce(displayed))
        try store.record([Event(assignment, reason: .initiated, device: "d", time: time)])
        let rows = try store.events(after: nil, limit: 10)
        #expect(rows.map(\.event.reason) == [.displayed, .initiated])
        #expect(rows[0].event == displayed)
        #expect(try store.latestEvents(limit: 1).map(\.id) == [2])
        #expect(try store.events(after: 1, limit: 10).map(\.id) == [2])
    }

    @Test func anEventKeepsWhoHadForcedItsVariant() throws {
        let store = try SQLiteStateStore(path: try folder() + "/state.sqlite")
        let assignment = Assignment(key: "color", value: "blue", experiment: "E", variant: "V", source: "Local")
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let forced = Event(assignment, reason: .activated, device: "d", time: time, forced: true, tester: "ana")
        try store.record([forced, Event(assignment, reason: .displayed, device: "d", time: time)])
        #expect(try store.events(after: nil, limit: 10).map(\.event.tester) == ["ana", nil])
        #expect(try store.events(after: nil, limit: 10).first?.event == forced)
    }

    @Test func twoConnectionsWritingAtOnceLoseNothing() async throws {
        let path = try folder() + "/state.sqlite"
        let stores = [try SQLiteStateStore(path: path), try SQLiteStateStore(path: path)]
        let assignment = Assignment(key: "k", value: 1, experiment: "E", variant: "V", source: "Local")
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for round in 0..<200 {
                        try? store.record([Event(assignment, reason: .initiated, device: "d\(index)", time: Date())])
                        try? store.setForcedVariant(
                            ForcedVariant(source: "S\(index)", experiment: "E\(round)", variant: "V")
                        )
                    }
                }
            }
        }
        #expect(try stores[0].events(after: nil, limit: 1000).count == 400)
        #expect(try stores[1].forcedVariants().count == 400)
    }
}

@Suite struct ActiveValueEncodingTests {
    @Test(arguments: [
        AssignmentValue.string("blue"), .string(""), .string("s:tricky"), .number(12), .number(-0.25), .bool(true),
        .bool(false), .json(.null), .json(.array([.number(1), .string("two")])),
        .json(.object([.init("b", .bool(true)), .init("a", .object([.init("c", .string("\u{1B}[2J"))]))])),
    ])
    func roundTrips(value: AssignmentValue) {
        #expect(AssignmentValue(taggedText: value.taggedText) == value)
    }
}

/// JSON values (GrowthBook objects and arrays) stay JSON in the event log.
@Suite struct JSONEventValueTests {
    @Test func aJSONValueComesBackAsJSON() throws {
        let folder = NSTemporaryDirectory() + "lab-json-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStateStore(path: folder + "/state.sqlite")
        let value = AssignmentValue.json(.object([.init("size", .number(12)), .init("tags", .array([.string("a")]))]))
        let event = Event(
            time: Date(timeIntervalSince1970: 1_800_000_000),
            device: "d",
            source: "GrowthBook",
            experiment: "E",
            variant: "V",
            key: "k",
            value: value,
            reason: .activated
        )
        try store.record([event])
        #expect(try store.events(matching: EventQuery(), after: nil, limit: 10).map(\.event.value) == [value])
    }
}
