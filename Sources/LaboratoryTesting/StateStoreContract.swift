import Foundation
import Laboratory
import Synchronization

/// The rules every `StateStore` keeps, as its documentation states them:
/// run them on your own store to know it can stand in for the state file.
/// `Tests/StateStoreContractTests` runs them on the in-memory twin and on the
/// SQLite state file.
///
/// Each rule opens the store twice on the same storage (as the app and the
/// console open one state file) and reports what it found broken; it needs
/// no test framework:
///
/// ```swift
/// for rule in StateStoreContract.rules {
///     let broken = await rule.check { let store = try MyStore(path); return (store, try MyStore(path)) }
///     #expect(broken.isEmpty, "\(rule.name): \(broken)")
/// }
/// ```
public enum StateStoreContract {
    /// Opens two handles on one new, empty storage.
    public typealias Open = @Sendable () throws -> (any StateStore, any StateStore)

    /// One rule of the contract.
    public struct Rule: Sendable, CustomStringConvertible {
        /// What the rule says, in a few words.
        public let name: String
        private let body: @Sendable (Check, Open) async throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (Check, Open) async throws -> Void) {
            self.name = name
            self.body = body
        }

        public var description: String { name }

        /// Runs the rule on new storage from `open`; what it found broken, none when the store keeps it.
        public func check(_ open: Open) async -> [Violation] {
            let check = Check()
            do {
                try await body(check, open)
            } catch {
                check.fail("threw \(error)")
            }
            return check.violations
        }
    }

    /// A rule a store broke: where in the rule, and what.
    public struct Violation: Sendable, CustomStringConvertible, Equatable {
        /// The line of this file whose check failed.
        public var line: UInt
        /// What was expected.
        public var expectation: String

        public var description: String { "StateStoreContract.swift:\(line): \(expectation)" }
    }

    /// Gathers what one run of a rule found broken.
    final class Check: Sendable {
        // A rule may check from the tasks it starts.
        private let found = Mutex<[Violation]>([])

        var violations: [Violation] { found.withLock { $0 } }

        func expect(_ condition: @autoclosure () throws -> Bool, _ expectation: String = "expected", line: UInt = #line)
        {
            do {
                if try !condition() { fail(expectation, line: line) }
            } catch {
                fail("\(expectation): threw \(error)", line: line)
            }
        }

        func fail(_ expectation: String, line: UInt = #line) {
            found.withLock { $0.append(Violation(line: line, expectation: expectation)) }
        }

        /// Runs `body` and says whether the revision moved; it never goes back.
        func raisesRevision(_ store: any StateStore, line: UInt = #line, _ body: () throws -> Void) throws -> Bool {
            try raises(store.revision, "the revision", line: line, body)
        }

        /// Runs `body` and says whether the device revision moved, as `store` sees it; it never goes back.
        func raisesDeviceRevision(_ store: any StateStore, line: UInt = #line, _ body: () throws -> Void) throws -> Bool
        {
            try raises(store.deviceRevision, "the device revision", line: line, body)
        }

        private func raises(
            _ read: () throws -> Int64,
            _ name: String,
            line: UInt,
            _ body: () throws -> Void
        ) throws -> Bool {
            let before = try read()
            try body()
            let after = try read()
            expect(after >= before, "\(name) never goes back", line: line)
            return after != before
        }
    }

    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// Whether the signal's count passes `count` before `seconds` pass.
    static func moves(_ signal: ChangeSignal, beyond count: Int, within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while signal.count <= count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Every rule, in the order the documentation of `StateStore` gives them.
    public static let rules: [Rule] = [
        Rule("theFirstDeviceStoredIsTheDeviceForEver") { check, open in
            let (store, other) = try open()
            let first = Device(id: "first", token: ActiveExperimentsToken(0.25))
            var stored: Device?
            check.expect(try check.raisesRevision(store) { stored = try store.device(candidate: first) })
            check.expect(stored == first)
            let second = Device(id: "second", token: ActiveExperimentsToken(0.75))
            check.expect(try !check.raisesRevision(store) { stored = try other.device(candidate: second) })
            check.expect(stored == first)
        },
        Rule("drawsAreSettledOnceAndForgottenWithTheirExperiment") { check, open in
            let (store, other) = try open()
            var asked: [String: Draw?] = [:]
            let settled = try store.settleDraws(source: "S", experiments: ["A", "B"], at: StateStoreContract.time) {
                asked[$0] = $1
                return $0 == "A" ? .choose("A1") : .keep
            }
            check.expect(
                asked.count == 2 && asked["A"] == .some(nil) && asked["B"] == .some(nil),
                "every listed experiment is asked about, with no draw yet"
            )
            check.expect(settled == ["A": Draw(variant: "A1", drawnAt: StateStoreContract.time)])
            check.expect(try other.draws(source: "S") == settled)
            check.expect(try other.draws(source: "T").isEmpty)
            // Keeping everything changes nothing.
            check.expect(
                try !check.raisesRevision(store) {
                    _ = try other.settleDraws(source: "S", experiments: ["A", "B"], at: StateStoreContract.time) {
                        _,
                        _ in .keep
                    }
                }
            )
            // The stored draw is handed to the decision; an experiment no longer listed is forgotten.
            var seen: Draw?
            var after: [String: Draw] = ["": Draw(variant: "", drawnAt: StateStoreContract.time)]
            check.expect(
                try check.raisesRevision(store) {
                    after = try other.settleDraws(source: "S", experiments: ["B"], at: StateStoreContract.time) {
                        seen = $1
                        return .keep
                    }
                }
            )
            check.expect(after.isEmpty)
            check.expect(seen == nil)
            _ = try store.settleDraws(source: "S", experiments: ["A"], at: StateStoreContract.time) { _, _ in
                .choose("A2")
            }
            var handed: Draw?
            let forgotten = try store.settleDraws(source: "S", experiments: ["A"], at: StateStoreContract.time) {
                handed = $1
                return .forget
            }
            check.expect(handed?.variant == "A2")
            check.expect(forgotten.isEmpty)
        },
        Rule("theDeviceRevisionMovesWithTheDeviceItsDrawsAndStabilizations") { check, open in
            let (store, other) = try open()
            let time = StateStoreContract.time
            func moves(line: UInt = #line, _ body: () throws -> Void) throws -> Bool {
                try check.raisesDeviceRevision(other, line: line, body)
            }
            check.expect(
                try moves { _ = try store.device(candidate: Device(id: "d", token: ActiveExperimentsToken(0.5))) },
                "storing the device"
            )
            check.expect(
                try moves {
                    _ = try store.settleDraws(source: "S", experiments: ["A"], at: time) { _, _ in .choose("A1") }
                },
                "a new draw"
            )
            check.expect(
                try !moves { _ = try store.settleDraws(source: "S", experiments: ["A"], at: time) { _, _ in .keep } },
                "settling that keeps every draw changes nothing"
            )
            check.expect(
                try moves { _ = try store.settleDraws(source: "S", experiments: [], at: time) { _, _ in .keep } },
                "a draw forgotten with its experiment"
            )
            check.expect(try moves { try store.stabilize(source: "S", at: time) }, "stabilizing")
            check.expect(try moves { try store.unstabilize(source: "S") }, "undoing a stabilization")
        },
        Rule("stabilizationKeepsItsFirstTimeUntilUndone") { check, open in
            let (store, other) = try open()
            check.expect(try store.stabilization(source: "S") == nil)
            check.expect(
                try check.raisesRevision(store) { try store.stabilize(source: "S", at: StateStoreContract.time) }
            )
            check.expect(
                try !check.raisesRevision(store) { try other.stabilize(source: "S", at: StateStoreContract.time + 60) }
            )
            check.expect(try other.stabilization(source: "S") == StateStoreContract.time)
            check.expect(try other.stabilization(source: "T") == nil)
            check.expect(try check.raisesRevision(store) { try other.unstabilize(source: "S") })
            check.expect(try !check.raisesRevision(store) { try store.unstabilize(source: "S") })
            check.expect(try store.stabilization(source: "S") == nil)
        },
        Rule("aStabilizationKeepsThePayloadOfItsMoment") { check, open in
            let (store, other) = try open()
            let first = Data("{\"features\":{\"a\":{}}}".utf8)
            try store.stabilize(source: "GB", at: StateStoreContract.time, keeping: first)
            try other.stabilize(source: "GB", at: StateStoreContract.time + 60, keeping: Data("{}".utf8))
            check.expect(try other.stabilizedPayload(source: "GB") == first)
            try store.stabilize(source: "Local", at: StateStoreContract.time)
            check.expect(try other.stabilizedPayload(source: "Local") == nil)
            try other.unstabilize(source: "GB")
            check.expect(try store.stabilizedPayload(source: "GB") == nil)
        },
        Rule("stickyBucketsAreMergedByKey") { check, open in
            let (store, other) = try open()
            check.expect(try store.stickyBuckets(source: "GB").isEmpty)
            check.expect(
                try check.raisesRevision(store) {
                    try store.setStickyBuckets(["id||1": "{}", "id||2": "[]"], source: "GB")
                }
            )
            check.expect(try !check.raisesRevision(store) { try other.setStickyBuckets(["id||1": "{}"], source: "GB") })
            check.expect(
                try check.raisesRevision(store) { try other.setStickyBuckets(["id||1": "{\"a\":1}"], source: "GB") }
            )
            check.expect(try store.stickyBuckets(source: "GB") == ["id||1": "{\"a\":1}", "id||2": "[]"])
            check.expect(try store.stickyBuckets(source: "Other").isEmpty)
        },
        Rule("forcedVariantsAreKeptSortedAndAnUnchangedOneChangesNothing") { check, open in
            let (store, other) = try open()
            let b = ForcedVariant(source: "S", experiment: "B", variant: "B1")
            let a = ForcedVariant(source: "S", experiment: "A", variant: nil)
            let t = ForcedVariant(source: "T", experiment: "A", variant: "A2")
            for request in [t, b, a] {
                check.expect(try check.raisesRevision(store) { try store.setForcedVariant(request) })
            }
            check.expect(try other.forcedVariants() == [a, b, t])
            check.expect(try !check.raisesRevision(store) { try other.setForcedVariant(b) })
            let replaced = ForcedVariant(source: "S", experiment: "B", variant: "B2")
            check.expect(try check.raisesRevision(store) { try other.setForcedVariant(replaced) })
            check.expect(try store.forcedVariants() == [a, replaced, t])
            check.expect(
                try check.raisesRevision(store) {
                    try store.removeForcedVariant(source: "S", experiment: "A", scope: .everyone)
                }
            )
            check.expect(
                try !check.raisesRevision(store) {
                    try store.removeForcedVariant(source: "S", experiment: "A", scope: .everyone)
                }
            )
            check.expect(try check.raisesRevision(store) { try other.removeForcedVariants(source: "T", scope: nil) })
            check.expect(try store.forcedVariants() == [replaced])
            check.expect(try check.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: nil) })
            check.expect(try !check.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: nil) })
            check.expect(try store.forcedVariants().isEmpty)
        },
        Rule("anExperimentHoldsOneForcedVariantPerScopeWithItsTesterAndTime") { check, open in
            let (store, other) = try open()
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
                check.expect(try check.raisesRevision(store) { try store.setForcedVariant(forced) })
            }
            // Everyone first, then the scopes by their text; tester and time read back as written.
            check.expect(try other.forcedVariants() == [everyone, forA, forBoth])
            // The same choice set again later changes nothing; another tester's does.
            var later = forA
            later.forcedAt = time.addingTimeInterval(60)
            check.expect(try !check.raisesRevision(store) { try other.setForcedVariant(later) })
            later.tester = "cy"
            check.expect(try check.raisesRevision(store) { try other.setForcedVariant(later) })
            check.expect(try store.forcedVariants() == [everyone, later, forBoth])
            // Unforcing one scope leaves the others.
            check.expect(
                try check.raisesRevision(store) {
                    try other.removeForcedVariant(source: "S", experiment: "E", scope: both)
                }
            )
            check.expect(try store.forcedVariants() == [everyone, later])
            // Reset of one scope drops only its forced variants, in every source.
            try store.setForcedVariant(ForcedVariant(source: "T", experiment: "X", variant: "X1", scope: phoneA))
            check.expect(try check.raisesRevision(store) { try other.removeForcedVariants(source: nil, scope: phoneA) })
            check.expect(try store.forcedVariants() == [everyone])
            check.expect(
                try !check.raisesRevision(store) { try other.removeForcedVariants(source: "S", scope: phoneA) }
            )
        },
        Rule("applyingForcedVariantsAddsOrReplacesThemAll") { check, open in
            let (store, other) = try open()
            let kept = ForcedVariant(source: "S", experiment: "K", variant: "K1")
            try store.setForcedVariant(kept)
            let file = [
                ForcedVariant(source: "S", experiment: "A", variant: "A1"),
                ForcedVariant(source: "S", experiment: "K", variant: "K2"),
            ]
            check.expect(try check.raisesRevision(store) { try other.applyForcedVariants(file, replacing: false) })
            check.expect(try store.forcedVariants() == file)
            check.expect(try !check.raisesRevision(store) { try other.applyForcedVariants(file, replacing: false) })
            check.expect(try !check.raisesRevision(store) { try other.applyForcedVariants(file, replacing: true) })
            try store.setForcedVariant(ForcedVariant(source: "T", experiment: "X", variant: nil))
            check.expect(
                try check.raisesRevision(store) {
                    try other.applyForcedVariants(Array(file.prefix(1)), replacing: true)
                }
            )
            check.expect(try store.forcedVariants() == Array(file.prefix(1)))
        },
        Rule("payloadsAndAttributesReadBackAsWritten") { check, open in
            let (store, other) = try open()
            check.expect(try store.payload(source: "GB") == nil)
            let payload = StoredPayload(
                data: Data("{\"features\":{}}".utf8),
                etag: "\"v1\"",
                fetchedAt: StateStoreContract.time
            )
            check.expect(try check.raisesRevision(store) { try store.setPayload(payload, source: "GB") })
            check.expect(try other.payload(source: "GB") == payload)
            check.expect(try !check.raisesRevision(store) { try other.setPayload(payload, source: "GB") })
            let newer = StoredPayload(data: payload.data, etag: "\"v2\"", fetchedAt: StateStoreContract.time + 30)
            check.expect(try check.raisesRevision(store) { try other.setPayload(newer, source: "GB") })
            check.expect(try store.payload(source: "GB") == newer)

            check.expect(try store.storedAttributes().isEmpty)
            let attributes = ["userId": "u-1", "country": "NZ"]
            check.expect(try check.raisesRevision(store) { try store.setStoredAttributes(attributes) })
            check.expect(try other.storedAttributes() == attributes)
            check.expect(try !check.raisesRevision(store) { try other.setStoredAttributes(attributes) })
            check.expect(try check.raisesRevision(store) { try other.setStoredAttributes([:]) })
            check.expect(try store.storedAttributes().isEmpty)
        },
        Rule("eachAppsWiringIsKeptByNameAndAnUnchangedOneChangesNothing") { check, open in
            let (store, other) = try open()
            check.expect(try store.appWirings().isEmpty)
            let shop = AppWiring(app: "shop", hasDebugSource: false)
            let admin = AppWiring(app: "admin", hasDebugSource: true)
            check.expect(try check.raisesRevision(store) { try store.recordAppWiring(shop) })
            check.expect(try check.raisesRevision(store) { try other.recordAppWiring(admin) })
            check.expect(try store.appWirings() == [admin, shop])
            check.expect(try !check.raisesRevision(store) { try other.recordAppWiring(shop) })
            let debugShop = AppWiring(app: "shop", hasDebugSource: true)
            check.expect(try check.raisesRevision(store) { try other.recordAppWiring(debugShop) })
            check.expect(try store.appWirings() == [admin, debugShop])
        },
        Rule("theActiveSetReportsWhatEnteredAndLeftOnce") { check, open in
            let (store, other) = try open()
            let red = Assignment(key: "color", value: "red", experiment: "E", variant: "Red", source: "S")
            let blue = Assignment(key: "color", value: "blue", experiment: "E", variant: "Blue", source: "S")
            let size = Assignment(key: "size", value: 10, experiment: "F", variant: "Big", source: "S")
            check.expect(
                try store.swapActiveAssignments([red, size]) == ActiveSetChange(entered: [red, size], left: [])
            )
            var change = ActiveSetChange(entered: [red], left: [])
            check.expect(try !check.raisesRevision(store) { change = try other.swapActiveAssignments([size, red]) })
            check.expect(change.isEmpty)
            let before = try store.revision()
            check.expect(
                try other.swapActiveAssignments([blue, size]) == ActiveSetChange(entered: [blue], left: [red])
            )
            // Exactly one: the manager tells its own swap's commit from another's by it.
            check.expect(try store.revision() == before + 1, "a swap that changes the set raises the revision by one")
            check.expect(try check.raisesRevision(store) { _ = try store.swapActiveAssignments([]) })
        },
        /// Two handles racing to report the same change: exactly one reports it,
        /// as an app and the console must not both log an `activated` event.
        Rule("aChangeRacedForIsReportedByOneHandleOnly") { check, open in
            let (store, other) = try open()
            let sets = (0..<10).map { round in
                [
                    Assignment(
                        key: "k",
                        value: .number(Double(round)),
                        experiment: "E",
                        variant: "V\(round)",
                        source: "S"
                    )
                ]
            }
            for set in sets {
                async let first = Task.detached { try store.swapActiveAssignments(set) }.value
                async let second = Task.detached { try other.swapActiveAssignments(set) }.value
                let changes = try await [first, second]
                check.expect(changes.filter { !$0.isEmpty }.count == 1, "\(changes)")
            }
        },
        Rule("readingNeverRaisesTheRevision") { check, open in
            let (store, _) = try open()
            try store.setForcedVariant(ForcedVariant(source: "S", experiment: "A", variant: "A1"))
            check.expect(
                try !check.raisesRevision(store) {
                    _ = try store.forcedVariants()
                    _ = try store.draws(source: "S")
                    _ = try store.stabilization(source: "S")
                    _ = try store.payload(source: "S")
                    _ = try store.storedAttributes()
                    _ = try store.appWirings()
                }
            )
        },
        /// Watchers wait on ``StateStore/changeSignal`` instead of reading on timers:
        /// a change through the other handle (another process, for SQLite) is
        /// signalled, and so is one through the store itself.
        Rule("changesAreSignalledWhoeverMakesThem") { check, open in
            let (store, other) = try open()
            guard let signal = store.changeSignal else {
                return check.fail("the store announces no changes (changeSignal is nil)")
            }
            // A listener keeps the SQLite store watching for other processes' commits.
            let listening = signal.stream()
            defer { withExtendedLifetime(listening) {} }
            let before = signal.count
            try other.setForcedVariant(ForcedVariant(source: "S", experiment: "E", variant: "A"))
            // Bounded only to prove it ends: the SQLite store sees another process's commit within 50 ms.
            let moved = await StateStoreContract.moves(signal, beyond: before, within: 30)
            check.expect(moved, "a change through the other handle is signalled")
            let seen = signal.count
            try store.setForcedVariant(ForcedVariant(source: "S", experiment: "E", variant: "B"))
            check.expect(signal.count > seen, "a change made through the store is announced as it returns")
        },
    ]
}
