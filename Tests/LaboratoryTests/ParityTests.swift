import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// User- and device-level experiments, hash bucketing and ramping,
/// whitelists, resolved experiments, typed split tests and strategies.
@Suite struct ParityTests {
    private func experiment(
        _ name: String = "Checkout",
        subject: Subject = .device,
        bucketing: Bucketing? = .hash,
        weights: [(String, Double)] = [("Control", 90), ("Treatment", 10)],
        whitelist: [String: String] = [:],
        winner: String? = nil,
        range: HalfOpenRange? = nil
    ) -> Experiment {
        Experiment(
            name: name,
            keys: ["checkoutFlow"],
            variants: weights.map { Variant(name: $0.0, weight: $0.1, assignments: ["checkoutFlow": .string($0.0)]) },
            baseline: weights[0].0,
            activeTokenRange: range,
            subject: subject,
            bucketing: bucketing,
            whitelist: whitelist,
            winner: winner
        )
    }

    /// One device: its own store, id and token, optionally a logged-in user.
    private func device(
        _ id: String,
        token: Double,
        user: String?,
        _ experiment: Experiment,
        store: InMemoryStateStore = InMemoryStateStore()
    ) throws -> LocalSource {
        let device = try store.device(candidate: Device(id: id, token: ActiveExperimentsToken(token)))
        return LocalSource(
            catalog: Catalog(source: "Local", experiments: [experiment]),
            store: store,
            device: device,
            random: SeededRandomSource(seed: 1),
            userID: user
        )
    }

    private func variant(_ source: LocalSource) throws -> String? {
        try source.activeVariants().first?.variant.name
    }

    @Test func aUserLevelExperimentFollowsTheUserAcrossDevicesAndNeedsOne() throws {
        let checkout = experiment(subject: .user, weights: [("A", 1), ("B", 1), ("C", 1), ("D", 1)])
        for user in (0..<50).map({ "user-\($0)" }) {
            let phone = try device("phone", token: 0.1, user: user, checkout)
            let tablet = try device("tablet", token: 0.9, user: user, checkout)
            let seen = try variant(phone)
            #expect(seen != nil)
            #expect(try variant(tablet) == seen, "\(user)")
        }
        #expect(try variant(device("phone", token: 0.1, user: nil, checkout)) == nil)
    }

    @Test func loggingInAndOutSwitchesUserLevelExperiments() throws {
        let source = try device("phone", token: 0.1, user: nil, experiment(subject: .user))
        #expect(try variant(source) == nil)
        source.setUserID("alice")
        let alice = try variant(source)
        #expect(alice == HashBucketing.variant(of: experiment(subject: .user), subject: "alice")?.name)
        source.setUserID(nil)
        #expect(try variant(source) == nil)
    }

    @Test func aDeviceLevelExperimentIsStablePerStateFile() throws {
        let store = InMemoryStateStore()
        let checkout = experiment(weights: [("A", 1), ("B", 1), ("C", 1)])
        let first = try variant(device("device-7", token: 0.5, user: "alice", checkout, store: store))
        let again = try variant(device("ignored", token: 0.5, user: "bob", checkout, store: store))
        #expect(first != nil && again == first)
    }

    @Test func hashedIdsSplitByTheWeights() {
        let checkout = experiment(weights: [("A", 1), ("B", 2), ("C", 7)])
        var counts: [String: Int] = [:]
        let total = 100_000
        for index in 0..<total {
            counts[HashBucketing.variant(of: checkout, subject: "id-\(index)")!.name, default: 0] += 1
        }
        let expected = ["A": 0.1, "B": 0.2, "C": 0.7]
        let chiSquare = expected.reduce(0.0) { sum, pair in
            let wanted = pair.value * Double(total)
            let seen = Double(counts[pair.key] ?? 0)
            return sum + (seen - wanted) * (seen - wanted) / wanted
        }
        // The chi-square critical value for 2 degrees of freedom at p = 0.001.
        #expect(chiSquare < 13.816, "chi-square \(chiSquare) for \(counts)")
    }

    @Test func rampingMovesSubjectsOnlyIntoTheGrowingVariant() {
        let before = experiment(weights: [("Control", 90), ("Treatment", 10)])
        let after = experiment(weights: [("Control", 80), ("Treatment", 20)])
        var movedIn = 0
        let total = 100_000
        for index in 0..<total {
            let id = "id-\(index)"
            let old = HashBucketing.variant(of: before, subject: id)!.name
            let new = HashBucketing.variant(of: after, subject: id)!.name
            #expect(!(old == "Treatment" && new != "Treatment"), "\(id) left the growing variant")
            if old != "Treatment" && new == "Treatment" { movedIn += 1 }
        }
        let share = Double(movedIn) / Double(total)
        #expect(abs(share - 0.10) < 0.01, "moved in: \(share)")
    }

    @Test func rampingOneOfThreeLeavesTheOtherTwoAlone() {
        let before = experiment(weights: [("A", 30), ("B", 10), ("C", 60)])
        let after = experiment(weights: [("A", 30), ("B", 25), ("C", 60)])
        for index in 0..<20_000 {
            let old = HashBucketing.variant(of: before, subject: "s\(index)")!.name
            let new = HashBucketing.variant(of: after, subject: "s\(index)")!.name
            #expect(old == new || new == "B")
        }
    }

    @Test func whitelistedSubjectsKeepTheirVariantThroughRamping() throws {
        let pins = ["device-vip": "Treatment"]
        for weights in [
            [("Control", 99.0), ("Treatment", 1.0)], [("Control", 1.0), ("Treatment", 99.0)],
            [("Control", 50.0), ("Treatment", 50.0)],
        ] {
            let source = try device("device-vip", token: 0.5, user: nil, experiment(weights: weights, whitelist: pins))
            let active = try #require(try source.activeVariants().first)
            #expect(active.variant.name == "Treatment")
            #expect(active.basis == .whitelisted)
        }
        // Users too, and whatever the token range says.
        let userPins = experiment(
            subject: .user,
            whitelist: ["employee-1": "Control"],
            range: HalfOpenRange(lower: 0, upper: 0)
        )
        #expect(try variant(device("d", token: 0.5, user: "employee-1", userPins)) == "Control")
        #expect(try variant(device("d", token: 0.5, user: "someone", userPins)) == nil)
    }

    @Test func aResolvedExperimentServesItsWinnerEvenWhereAnotherVariantWasDrawn() throws {
        let store = InMemoryStateStore()
        let running = experiment(bucketing: .random, weights: [("A", 1), ("B", 1)])
        let first = try device("d", token: 0.5, user: nil, running, store: store)
        _ = try variant(first)
        let drawn = try #require(try store.draws(source: "Local")["Checkout"]?.variant)
        let winner = drawn == "A" ? "B" : "A"
        let resolved = try device(
            "d",
            token: 0.5,
            user: nil,
            experiment(bucketing: .random, weights: [("A", 1), ("B", 1)], winner: winner),
            store: store
        )
        let active = try #require(try resolved.activeVariants().first)
        #expect(active.variant.name == winner)
        #expect(active.basis == .resolved)
        // Everyone gets it: a user-level one even without a user, a ranged one outside its range.
        let anywhere = experiment(subject: .user, winner: "Treatment", range: HalfOpenRange(lower: 0, upper: 0.1))
        #expect(try variant(device("x", token: 0.9, user: nil, anywhere)) == "Treatment")
    }

    @Test func forcingAResolvedExperimentIsPossible() throws {
        let catalog = Catalog(source: "Local", experiments: [experiment(winner: "Treatment")])
        let world = try World([catalog])
        try world.debug.force(variant: "Control", of: "Checkout")
        #expect(try world.value("checkoutFlow") == "Control")
        #expect(try world.debug.entries()[0].natural?.basis == .resolved)
    }

    enum CheckoutTest: SplitTest {
        enum Group: String, CaseIterable, Sendable {
            case control = "Control"
            case controlCheck = "ControlCheck"
            case treatment = "Treatment"
        }
        static let experiment = "Checkout"
        static let baseline = Group.control
    }

    @Test func aTypedSplitTestReturnsEnumCasesAndRecordsOneHit() throws {
        let catalog = Catalog(
            source: "Local",
            experiments: [
                experiment(bucketing: .random, weights: [("Control", 1), ("ControlCheck", 1), ("Treatment", 1)])
            ]
        )
        let world = try World([catalog], draws: FixedRandomSource(0.9))
        try world.manager.refresh()
        let test = world.manager.splitTest(CheckoutTest.self)
        #expect(test.group == .treatment)
        #expect(test.isActive)
        var recorded = 0
        for _ in 0..<1_000 where try test.hit() { recorded += 1 }
        #expect(recorded == 1)
        #expect(world.events.events.filter { $0.reason == .displayed }.count == 1)

        try world.debug.force(variant: "ControlCheck", of: "Checkout")
        try world.manager.refresh()
        #expect(world.manager.splitTest(CheckoutTest.self).group == .controlCheck)
    }

    @Test func anInactiveOrUnknownSplitTestGivesTheBaseline() throws {
        enum Retired: SplitTest {
            enum Group: String, CaseIterable, Sendable {
                case old = "Old"
                case new = "New"
            }
            static let experiment = "RetiredLongAgo"
            static let baseline = Group.old
        }
        let world = try World([Catalog(source: "Local", experiments: [experiment()])])
        try world.manager.refresh()
        let retired = world.manager.splitTest(Retired.self)
        #expect(retired.group == .old && !retired.isActive)
        #expect(try !retired.hit())
    }

    @Test func strategiesAreChosenOncePerVariantWithTheBaselineAsFallback() throws {
        let world = try World(
            [Catalog(source: "Local", experiments: [experiment(bucketing: .random)])],
            draws: FixedRandomSource(0.95)
        )
        try world.manager.refresh()
        let flow = world.manager.strategy(for: "Checkout", ["Treatment": "one-page"], default: "classic")
        #expect(flow == "one-page")
        #expect(world.manager.strategy(for: "Missing", ["Treatment": "one-page"], default: "classic") == "classic")
        #expect(world.manager.strategy(for: CheckoutTest.self, [.treatment: 2], default: 1) == 2)
    }

    @Test func catalogFieldsDecodeAndMistakesAreReported() throws {
        let catalog = try Fixtures.decode(
            """
            {"source": "S", "experiments": [{"name": "E", "keys": ["k"], "baseline": "A", "subject": "user",
              "whitelist": {"employee-1": "B"}, "status": "resolved", "winner": "B",
              "variants": [{"name": "A", "assignments": {"k": 1}}, {"name": "B", "assignments": {"k": 2}}]}]}
            """
        )
        let experiment = catalog.experiments[0]
        #expect(experiment.subject == .user && experiment.bucketing == .hash)
        #expect(experiment.whitelist == ["employee-1": "B"] && experiment.winner == "B")

        let problems = Fixtures.problems(
            """
            {"source": "S", "experiments": [{"name": "E", "keys": ["k"], "baseline": "A", "subject": "team",
              "bucketing": "hash", "whitelist": {"x": "Z"}, "status": "resolved",
              "variants": [{"name": "A", "assignments": {"k": 1}}]},
              {"name": "F", "keys": ["k"], "baseline": "A", "subject": "user", "bucketing": "random", "winner": "A",
              "variants": [{"name": "A", "assignments": {"k": 1}}]}]}
            """
        )
        #expect(
            problems == [
                "1:90: \"subject\" of experiment \"E\" must be \"device\" or \"user\", found \"team\"",
                "2:43: whitelist of experiment \"E\" pins \"x\" to \"Z\", which is not one of its variants",
                "2:59: experiment \"E\" is resolved but names no \"winner\"",
                "4:81: experiment \"F\" is user-level, so it needs \"bucketing\": \"hash\" to give one user the same variant on every device",
                "4:101: experiment \"F\" names a \"winner\" but its \"status\" is not \"resolved\"",
            ]
        )
    }
}
