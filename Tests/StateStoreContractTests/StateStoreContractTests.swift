import Foundation
import Laboratory
import LaboratorySQLite
import LaboratoryTesting
import Synchronization
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
        var asked: [String: Draw?] = [:]
        let settled = try store.settleDraws(source: "S", experiments: ["A", "B"], at: Self.time) {
            asked[$0] = $1
            return $0 == "A" ? .choose("A1") : .keep
        }
        #expect(asked.count == 2 && asked["A"]! == nil && asked["B"]! == nil)
        #expect(settled == ["A": Draw(variant: "A1", drawnAt: Self.time)])
        #expect(try other.draws(source: "S") == settled)
        #expect(try other.draws(source: "T").isEmpty)
        // Keeping everything changes nothing.
        #expect(
            try !Self.raisesRevision(store) {
                _ = try other.settleDraws(source: "S", experiments: ["A", "B"], at: Self.time) { _, _ in .keep }
            }
        )
        // The stored draw is handed to the decision; an experiment no longer listed is forgotten.
        var seen: Draw?
        var after: [String: Draw] = ["": Draw(variant: "", drawnAt: Self.time)]
        #expect(
            try Self.raisesRevision(store) {
                after = try other.settleDraws(source: "S", experiments: ["B"], at: Self.time) {
                    seen = $1
                    return .keep
                }
            }
        )
        #expect(after.isEmpty)
        #expect(seen == nil)
        _ = try store.settleDraws(source: "S", experiments: ["A"], at: Self.time) { _, _ in .choose("A2") }
        var handed: Draw?
        let forgotten = try store.settleDraws(source: "S", experiments: ["A"], at: Self.time) {
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
    func aStabilizationKeepsThePayloadOfItsMoment(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let first = Data("{\"features\":{\"a\":{}}}".utf8)
        try store.stabilize(source: "GB", at: Self.time, keeping: first)
        try other.stabilize(source: "GB", at: Self.time + 60, keeping: Data("{}".utf8))
        #expect(try other.stabilizedPayload(source: "GB") == first)
        try store.stabilize(source: "Local", at: Self.time)
        #expect(try other.stabilizedPayload(source: "Local") == nil)
        try other.unstabilize(source: "GB")
        #expect(try store.stabilizedPayload(source: "GB") == nil)
    }

    @Test(arguments: kinds)
    func stickyBucketsAreMergedByKey(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        #expect(try store.stickyBuckets(source: "GB").isEmpty)
        #expect(
            try Self.raisesRevision(store) { try store.setStickyBuckets(["id||1": "{}", "id||2": "[]"], source: "GB") }
        )
        #expect(try !Self.raisesRevision(store) { try other.setStickyBuckets(["id||1": "{}"], source: "GB") })
        #expect(try Self.raisesRevision(store) { try other.setStickyBuckets(["id||1": "{\"a\":1}"], source: "GB") })
        #expect(try store.stickyBuckets(source: "GB") == ["id||1": "{\"a\":1}", "id||2": "[]"])
        #expect(try store.stickyBuckets(source: "Other").isEmpty)
    }

    @Test(arguments: kinds)
    func forcedVariantsAreKeptSortedAndAnUnchangedOneChangesNothing(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let b = ForcedVariant(source: "S", experiment: "B", variant: "B1")
        let a = ForcedVariant(source: "S", experiment: "A", variant: nil)
        let t = ForcedVariant(source: "T", experiment: "A", variant: "A2")
        for request in [t, b, a] { #expect(try Self.raisesRevision(store) { try store.setForcedVariant(request) }) }
        #expect(try other.forcedVariants() == [a, b, t])
        #expect(try !Self.raisesRevision(store) { try other.setForcedVariant(b) })
        let replaced = ForcedVariant(source: "S", experiment: "B", variant: "B2")
        #expect(try Self.raisesRevision(store) { try other.setForcedVariant(replaced) })
        #expect(try store.forcedVariants() == [a, replaced, t])
        #expect(
            try Self.raisesRevision(store) {
                try store.removeForcedVariant(source: "S", experiment: "A", scope: .everyone)
            }
        )
        #expect(
            try !Self.raisesRevision(store) {
                try store.removeForcedVariant(source: "S", experiment: "A", scope: .everyone)
            }
        )
        #expect(try Self.raisesRevision(store) { try other.removeForcedVariants(source: "T", scope: nil) })
        #expect(try store.forcedVariants() == [replaced])
        #expect(try Self.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: nil) })
        #expect(try !Self.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: nil) })
        #expect(try store.forcedVariants().isEmpty)
    }

    @Test(arguments: kinds)
    func anExperimentHoldsOneForcedVariantPerScopeWithItsTesterAndTime(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        let everyone = ForcedVariant(source: "S", experiment: "E", variant: "E1", tester: "ana", forcedAt: time)
        let phoneA = Scope(attributes: ["id": "qa-phone-7"])
        let both = Scope(attributes: ["id": "qa-phone-7", "os": "ios"])
        let forA = ForcedVariant(
            source: "S",
            experiment: "E",
            variant: "E2",
            scope: phoneA,
            tester: "bo",
            forcedAt: time
        )
        let forBoth = ForcedVariant(
            source: "S",
            experiment: "E",
            variant: nil,
            scope: both,
            tester: "bo",
            forcedAt: time
        )
        for forced in [forBoth, forA, everyone] {
            #expect(try Self.raisesRevision(store) { try store.setForcedVariant(forced) })
        }
        // Everyone first, then the scopes by their text; tester and time read back as written.
        #expect(try other.forcedVariants() == [everyone, forA, forBoth])
        // The same choice set again later changes nothing; another tester's does.
        var later = forA
        later.forcedAt = time.addingTimeInterval(60)
        #expect(try !Self.raisesRevision(store) { try other.setForcedVariant(later) })
        later.tester = "cy"
        #expect(try Self.raisesRevision(store) { try other.setForcedVariant(later) })
        #expect(try store.forcedVariants() == [everyone, later, forBoth])
        // Unforcing one scope leaves the others.
        #expect(
            try Self.raisesRevision(store) { try other.removeForcedVariant(source: "S", experiment: "E", scope: both) }
        )
        #expect(try store.forcedVariants() == [everyone, later])
        // Reset of one scope drops only its forced variants, in every source.
        try store.setForcedVariant(ForcedVariant(source: "T", experiment: "X", variant: "X1", scope: phoneA))
        #expect(try Self.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: phoneA) })
        #expect(try store.forcedVariants() == [everyone])
        #expect(try !Self.raisesRevision(store) { try other.removeForcedVariants(source: "S", scope: phoneA) })
    }

    @Test(arguments: kinds)
    func applyingForcedVariantsAddsOrReplacesThemAll(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        let kept = ForcedVariant(source: "S", experiment: "K", variant: "K1")
        try store.setForcedVariant(kept)
        let file = [
            ForcedVariant(source: "S", experiment: "A", variant: "A1"),
            ForcedVariant(source: "S", experiment: "K", variant: "K2"),
        ]
        #expect(try Self.raisesRevision(store) { try other.applyForcedVariants(file, replacing: false) })
        #expect(try store.forcedVariants() == file)
        #expect(try !Self.raisesRevision(store) { try other.applyForcedVariants(file, replacing: false) })
        #expect(try !Self.raisesRevision(store) { try other.applyForcedVariants(file, replacing: true) })
        try store.setForcedVariant(ForcedVariant(source: "T", experiment: "X", variant: nil))
        #expect(
            try Self.raisesRevision(store) { try other.applyForcedVariants(Array(file.prefix(1)), replacing: true) }
        )
        #expect(try store.forcedVariants() == Array(file.prefix(1)))
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
    func eachAppsWiringIsKeptByNameAndAnUnchangedOneChangesNothing(_ kind: Kind) throws {
        let (store, other) = try kind.open()
        #expect(try store.appWirings().isEmpty)
        let shop = AppWiring(app: "shop", hasDebugSource: false)
        let admin = AppWiring(app: "admin", hasDebugSource: true)
        #expect(try Self.raisesRevision(store) { try store.recordAppWiring(shop) })
        #expect(try Self.raisesRevision(store) { try other.recordAppWiring(admin) })
        #expect(try store.appWirings() == [admin, shop])
        #expect(try !Self.raisesRevision(store) { try other.recordAppWiring(shop) })
        let debugShop = AppWiring(app: "shop", hasDebugSource: true)
        #expect(try Self.raisesRevision(store) { try other.recordAppWiring(debugShop) })
        #expect(try store.appWirings() == [admin, debugShop])
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
        try store.setForcedVariant(ForcedVariant(source: "S", experiment: "A", variant: "A1"))
        #expect(
            try !Self.raisesRevision(store) {
                _ = try store.forcedVariants()
                _ = try store.draws(source: "S")
                _ = try store.stabilization(source: "S")
                _ = try store.payload(source: "S")
                _ = try store.attributeOverrides()
                _ = try store.appWirings()
            }
        )
    }

    /// Watchers wait on ``StateStore/changeSignal`` instead of reading on timers:
    /// a change through the other handle (another process, for SQLite) is
    /// signalled, and so is one through the store itself.
    @Test(arguments: kinds)
    func changesAreSignalledWhoeverMakesThem(_ kind: Kind) async throws {
        let (store, other) = try kind.open()
        let signal = try #require(store.changeSignal, "both stores announce their changes")
        // A listener keeps the SQLite store watching for other processes' commits.
        let listening = signal.stream()
        defer { withExtendedLifetime(listening) {} }
        let before = signal.count
        try other.setForcedVariant(ForcedVariant(source: "S", experiment: "E", variant: "A"))
        // Bounded only to prove it ends: the SQLite store sees another process's commit within 50 ms.
        #expect(await Self.moves(signal, beyond: before, within: 30))
        let seen = signal.count
        try store.setForcedVariant(ForcedVariant(source: "S", experiment: "E", variant: "B"))
        #expect(signal.count > seen, "a change made through the store is announced as it returns")
    }

    /// Whether the signal's count passes `count` before `seconds` pass.
    static func moves(_ signal: ChangeSignal, beyond count: Int, within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while signal.count <= count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
