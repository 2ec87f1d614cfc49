import Foundation
import Laboratory
import LaboratorySQLite
import LaboratoryTesting
import Testing

/// The rules every ``StateStore`` keeps, as its documentation states them,
/// checked once for every store: the in-memory twin an app's tests use and
/// the SQLite state file an app ships with. A store that passes here can
/// stand in for the other.
@Suite struct StateStoreContractTests {
    /// A way to open a store twice on the same storage, as two processes
    /// (the app and the console) open the same state file.
    struct Kind: Sendable, CustomTestStringConvertible {
        var name: String
        var open: @Sendable () throws -> (any StateStore, any StateStore)
        var testDescription: String { name }
    }

    static let kinds = [
        Kind(name: "in-memory") {
            let store = InMemoryStateStore()
            return (store, store)
        },
        Kind(name: "SQLite") {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("contract-\(UUID().uuidString).sqlite").path
            return (try SQLiteStateStore(path: path), try SQLiteStateStore(path: path))
        },
    ]

    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` and says whether the revision moved.
    static func raisesRevision(_ store: any StateStore, _ body: () throws -> Void) throws -> Bool {
        let before = try store.revision()
        try body()
        let after = try store.revision()
        #expect(after >= before, "the revision never goes back")
        return after != before
    }

    @Test(arguments: kinds)
    func theFirstDeviceStoredIsTheDeviceForEver(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let first = Device(id: "first", token: ActiveExperimentsToken(0.25))
        var stored: Device?
        #expect(try Self.raisesRevision(store) { stored = try store.device(candidate: first) })
        #expect(stored == first)
        let second = Device(id: "second", token: ActiveExperimentsToken(0.75))
        #expect(try !Self.raisesRevision(store) { stored = try other.device(candidate: second) })
        #expect(stored == first)
    }

    @Test(arguments: kinds)
    func drawsAreSettledOnceAndForgottenWithTheirExperiment(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        var asked: [String: StoredChoice?] = [:]
        let settled = try store.resolveChoices(source: "S", experiments: ["A", "B"], at: Self.time) {
            asked[$0] = $1
            return $0 == "A" ? .choose("A1") : .keep
        }
        #expect(asked.count == 2 && asked["A"]! == nil && asked["B"]! == nil)
        #expect(settled == ["A": StoredChoice(variant: "A1", madeAt: Self.time)])
        #expect(try other.choices(source: "S") == settled)
        #expect(try other.choices(source: "T").isEmpty)
        // Keeping everything changes nothing.
        #expect(
            try !Self.raisesRevision(store) {
                _ = try other.resolveChoices(source: "S", experiments: ["A", "B"], at: Self.time) { _, _ in .keep }
            }
        )
        // The stored draw is handed to the decision; an experiment no longer listed is forgotten.
        var seen: StoredChoice?
        var after: [String: StoredChoice] = ["": StoredChoice(variant: "", madeAt: Self.time)]
        #expect(
            try Self.raisesRevision(store) {
                after = try other.resolveChoices(source: "S", experiments: ["B"], at: Self.time) {
                    seen = $1
                    return .keep
                }
            }
        )
        #expect(after.isEmpty)
        #expect(seen == nil)
        _ = try store.resolveChoices(source: "S", experiments: ["A"], at: Self.time) { _, _ in .choose("A2") }
        var handed: StoredChoice?
        let forgotten = try store.resolveChoices(source: "S", experiments: ["A"], at: Self.time) {
            handed = $1
            return .forget
        }
        #expect(handed?.variant == "A2")
        #expect(forgotten.isEmpty)
    }

    @Test(arguments: kinds)
    func stabilizationKeepsItsFirstTimeUntilUndone(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        #expect(try store.stabilization(source: "S") == nil)
        #expect(try Self.raisesRevision(store) { try store.stabilize(source: "S", at: Self.time) })
        #expect(try !Self.raisesRevision(store) { try other.stabilize(source: "S", at: Self.time + 60) })
        #expect(try other.stabilization(source: "S") == Self.time)
        #expect(try other.stabilization(source: "T") == nil)
        #expect(try Self.raisesRevision(store) { try other.unstabilize(source: "S") })
        #expect(try !Self.raisesRevision(store) { try store.unstabilize(source: "S") })
        #expect(try store.stabilization(source: "S") == nil)
    }

    @Test(arguments: kinds)
    func forcedVariantsAreKeptSortedAndAnUnchangedOneChangesNothing(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let b = DebugRequest(source: "S", experiment: "B", variant: "B1")
        let a = DebugRequest(source: "S", experiment: "A", variant: nil)
        let t = DebugRequest(source: "T", experiment: "A", variant: "A2")
        for request in [t, b, a] { #expect(try Self.raisesRevision(store) { try store.setDebugRequest(request) }) }
        #expect(try other.debugRequests() == [a, b, t])
        #expect(try !Self.raisesRevision(store) { try other.setDebugRequest(b) })
        let replaced = DebugRequest(source: "S", experiment: "B", variant: "B2")
        #expect(try Self.raisesRevision(store) { try other.setDebugRequest(replaced) })
        #expect(try store.debugRequests() == [a, replaced, t])
        #expect(try Self.raisesRevision(store) { try store.removeDebugRequest(source: "S", experiment: "A") })
        #expect(try !Self.raisesRevision(store) { try store.removeDebugRequest(source: "S", experiment: "A") })
        #expect(try Self.raisesRevision(store) { try other.removeDebugRequests(source: "T") })
        #expect(try store.debugRequests() == [replaced])
        #expect(try Self.raisesRevision(store) { try other.removeDebugRequests(source: nil) })
        #expect(try !Self.raisesRevision(store) { try other.removeDebugRequests(source: nil) })
        #expect(try store.debugRequests().isEmpty)
    }

    @Test(arguments: kinds)
    func applyingForcedVariantsAddsOrReplacesThemAll(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let kept = DebugRequest(source: "S", experiment: "K", variant: "K1")
        try store.setDebugRequest(kept)
        let file = [
            DebugRequest(source: "S", experiment: "A", variant: "A1"),
            DebugRequest(source: "S", experiment: "K", variant: "K2"),
        ]
        #expect(try Self.raisesRevision(store) { try other.applyDebugRequests(file, replacing: false) })
        #expect(try store.debugRequests() == file)
        #expect(try !Self.raisesRevision(store) { try other.applyDebugRequests(file, replacing: false) })
        #expect(try !Self.raisesRevision(store) { try other.applyDebugRequests(file, replacing: true) })
        try store.setDebugRequest(DebugRequest(source: "T", experiment: "X", variant: nil))
        #expect(try Self.raisesRevision(store) { try other.applyDebugRequests(Array(file.prefix(1)), replacing: true) })
        #expect(try store.debugRequests() == Array(file.prefix(1)))
    }

    @Test(arguments: kinds)
    func payloadsAndAttributesReadBackAsWritten(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        #expect(try store.payload(source: "GB") == nil)
        let payload = StoredPayload(data: Data("{\"features\":{}}".utf8), etag: "\"v1\"", fetchedAt: Self.time)
        #expect(try Self.raisesRevision(store) { try store.setPayload(payload, source: "GB") })
        #expect(try other.payload(source: "GB") == payload)
        #expect(try !Self.raisesRevision(store) { try other.setPayload(payload, source: "GB") })
        let newer = StoredPayload(data: payload.data, etag: "\"v2\"", fetchedAt: Self.time + 30)
        #expect(try Self.raisesRevision(store) { try other.setPayload(newer, source: "GB") })
        #expect(try store.payload(source: "GB") == newer)

        #expect(try store.attributeOverrides().isEmpty)
        let attributes = ["userId": "u-1", "country": "NZ"]
        #expect(try Self.raisesRevision(store) { try store.setAttributeOverrides(attributes) })
        #expect(try other.attributeOverrides() == attributes)
        #expect(try !Self.raisesRevision(store) { try other.setAttributeOverrides(attributes) })
        #expect(try Self.raisesRevision(store) { try other.setAttributeOverrides([:]) })
        #expect(try store.attributeOverrides().isEmpty)
    }

    @Test(arguments: kinds)
    func theActiveSetReportsWhatEnteredAndLeftOnce(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let red = Assignment(key: "color", value: "red", experiment: "E", variant: "Red", source: "S")
        let blue = Assignment(key: "color", value: "blue", experiment: "E", variant: "Blue", source: "S")
        let size = Assignment(key: "size", value: 10, experiment: "F", variant: "Big", source: "S")
        #expect(try store.swapActiveAssignments([red, size]) == ActiveSetChange(entered: [red, size], left: []))
        var change = ActiveSetChange(entered: [red], left: [])
        #expect(try !Self.raisesRevision(store) { change = try other.swapActiveAssignments([size, red]) })
        #expect(change.isEmpty)
        #expect(try other.swapActiveAssignments([blue, size]) == ActiveSetChange(entered: [blue], left: [red]))
        #expect(try Self.raisesRevision(store) { _ = try store.swapActiveAssignments([]) })
    }

    /// Two handles racing to report the same change: exactly one reports it,
    /// as an app and the console must not both log an `activated` event.
    @Test(arguments: kinds)
    func aChangeRacedForIsReportedByOneHandleOnly(_ kind: Kind) async throws {
        let (store, other) = try kind.open()
        let sets = (0..<10).map { round in
            [Assignment(key: "k", value: .number(Double(round)), experiment: "E", variant: "V\(round)", source: "S")]
        }
        for set in sets {
            async let first = Task.detached { try store.swapActiveAssignments(set) }.value
            async let second = Task.detached { try other.swapActiveAssignments(set) }.value
            let changes = try await [first, second]
            #expect(changes.filter { !$0.isEmpty }.count == 1, "\(changes)")
        }
    }

    @Test(arguments: kinds)
    func readingNeverRaisesTheRevision(_ kind: Kind) throws {
        let (store, _) = try kind.open()
        try store.setDebugRequest(DebugRequest(source: "S", experiment: "A", variant: "A1"))
        #expect(
            try !Self.raisesRevision(store) {
                _ = try store.debugRequests()
                _ = try store.choices(source: "S")
                _ = try store.stabilization(source: "S")
                _ = try store.payload(source: "S")
                _ = try store.attributeOverrides()
            }
        )
    }
}
