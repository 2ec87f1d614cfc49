import Foundation
import GrowthBook
import Laboratory
import LaboratoryTesting
import Testing

@testable import LaboratoryServer

/// A rebuild from the previous state works only on what changed, and so do
/// the manager's refresh and the debug source's entries under it; these
/// tests hold each to what a build from nothing makes, over random
/// sequences of forces, scoped forces, unforces, resets, attribute changes
/// and catalogs that change under it.
@Suite struct IncrementalRebuildTests {
    /// Experiments that share keys (so conflicts move when one is forced),
    /// some out of this device's range, some hashed, some per user with a
    /// whitelisted user, one resolved.
    private static func catalog(experiments: Int) -> String {
        var list: [String] = []
        for number in 0..<experiments {
            let keys = ["k\(number % 7)", "k\((number * 3 + 1) % 11)"].uniquedKeepingOrder()
            let variants = (0..<(2 + number % 2)).map { variant in
                let values = keys.map { #""\#($0)": "\#(number)-\#(variant)""# }.joined(separator: ", ")
                return #"{"name": "V\#(variant)", "assignments": {\#(values)}}"#
            }
            var extra = ""
            if number % 5 == 3 { extra += #", "activeTokenRange": [0.9, 1.0]"# }
            if number % 4 == 1 { extra += #", "bucketing": "hash""# }
            if number % 6 == 0 { extra += #", "subject": "user", "whitelist": {"u1": "V1"}"# }
            if number == 2 { extra += #", "status": "resolved", "winner": "V1""# }
            let keyList = keys.map { "\"\($0)\"" }.joined(separator: ", ")
            list.append(
                #"{"name": "E\#(number)", "keys": [\#(keyList)], "baseline": "V0"\#(extra), "variants": [\#(variants.joined(separator: ", "))]}"#
            )
        }
        return #"{"source": "Local", "experiments": [\#(list.joined(separator: ",\n"))]}"#
    }

    /// A GrowthBook payload that assigns some of the catalog's keys too.
    private static let payload = """
        {"features": {
          "k1": {"defaultValue": "gb", "rules": [{"force": "nl", "condition": {"country": "NL"}}]},
          "k5": {"defaultValue": "gb5", "rules": [
            {"key": "gb-test", "variations": ["a", "b"], "coverage": 1, "weights": [0.5, 0.5]}]},
          "g1": {"defaultValue": 1}
        }}
        """

    private final class World {
        let store = InMemoryStateStore()
        let device: Device
        let wrapped: [any ExperimentSource]
        let debug: DebugSource
        let manager: AssignmentsManager
        let experiments: [Experiment]
        /// The attributes given for this run, as the last change set them.
        var runAttributes: [String: String] = [:]
        /// The GrowthBook payload's experiments, as the source maps its rules.
        let growthBookExperiments: [Experiment]

        init(experiments count: Int, seed: UInt64) throws {
            let catalog = try CatalogDecoder().decode(
                Data(IncrementalRebuildTests.catalog(experiments: count).utf8),
                file: "c.json"
            )
            experiments = catalog.experiments
            let device = try store.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.5)))
            self.device = device
            let local = LocalSource(
                catalog: catalog,
                store: store,
                device: device,
                random: SeededRandomSource(seed: seed)
            )
            let growthBook = GrowthBookSource(
                store: store,
                device: device,
                attributes: ["plan": "pro"],
                fetcher: PlainPayloadFetcher(InMemoryFetcher())
            )
            try growthBook.accept(Data(IncrementalRebuildTests.payload.utf8))
            growthBookExperiments = growthBook.experiments
            wrapped = [local, growthBook]
            debug = DebugSource(sources: wrapped, store: store)
            manager = AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
        }

        func useAttributes(_ attributes: [String: String]) {
            runAttributes = attributes
            debug.useAttributes(attributes)
        }

        /// The entries and the snapshot as a new debug source and a new
        /// manager find them: what the kept ones, which change only what
        /// changed, must agree with.
        func fromNothing() throws -> (entries: [DebugEntry], snapshot: AssignmentsSnapshot) {
            let debug = DebugSource(sources: wrapped, store: store)
            debug.useAttributes(runAttributes)
            let manager = AssignmentsManager(
                sources: [debug],
                store: store,
                events: InMemoryEventSink(),
                device: device
            )
            let snapshot = try manager.refresh()
            return (try debug.entries(), snapshot)
        }

        /// What the hub builds from after a change: the refresh, the entries and the shared features.
        func inputs() throws -> (entries: [DebugEntry], snapshot: AssignmentsSnapshot, shared: [SharedFeatures]) {
            let snapshot = try manager.refresh()
            let forced = try store.forcedVariants()
            return (
                try debug.entries(), snapshot,
                debug.leaves.compactMap { $0.sharing?.sharedFeatures(forcing: forced) }
            )
        }
    }

    /// The payload as a JSON object without its `dateUpdated`, which a fresh build stamps anew.
    private static func content(_ state: ServedState) throws -> NSDictionary {
        let object = try #require(try JSONSerialization.jsonObject(with: state.payload) as? [String: Any])
        return object.filter { $0.key != "dateUpdated" } as NSDictionary
    }

    private static func expectSame(_ rebuilt: ServedState, _ fresh: ServedState, _ step: String) throws {
        #expect(rebuilt.keys == fresh.keys, "\(step)")
        for key in fresh.keys {
            #expect(rebuilt.flags[key] == fresh.flags[key], "\(step): flag \(key)")
        }
        #expect(rebuilt.flagsTag == fresh.flagsTag, "\(step)")
        #expect(rebuilt.payloadTag == fresh.payloadTag, "\(step)")
        #expect(try content(rebuilt) == content(fresh), "\(step)")
        #expect(rebuilt.forcing.keys.sorted() == fresh.forcing.keys.sorted(), "\(step)")
        for context in contexts {
            for key in fresh.keys {
                #expect(
                    rebuilt.flag(key, context: context) == fresh.flag(key, context: context),
                    "\(step): \(key) for \(context)"
                )
            }
        }
    }

    private static let contexts: [JSONValue] = [
        .object([JSONValue.Member("targetingKey", .string("qa-1"))]),
        .object([JSONValue.Member("targetingKey", .string("u9")), JSONValue.Member("country", .string("NL"))]),
    ]

    /// One random change of the state, described for the failure message.
    private static func change(_ world: World, _ random: SeededRandomSource) throws -> String {
        func pick(_ count: Int) -> Int { min(count - 1, Int(random.nextUnit() * Double(count))) }
        let experiment = world.experiments[pick(world.experiments.count)]
        let scopes = [Scope.everyone, Scope(attributes: ["id": "qa-1"]), Scope(attributes: ["country": "NL"])]
        let scope = scopes[pick(scopes.count)]
        switch pick(10) {
        case 0...3:
            let variant = experiment.variants[pick(experiment.variants.count)].name
            _ = try world.debug.force(variant: variant, of: experiment.name, scope: scope)
            return "force \(experiment.name) to \(variant) for \(scope)"
        case 4:
            _ = try world.debug.forceInactive(experiment: experiment.name, scope: scope)
            return "force \(experiment.name) inactive for \(scope)"
        case 5, 6:
            _ = try? world.debug.unforce(experiment: experiment.name, scope: scope)
            return "unforce \(experiment.name) for \(scope)"
        case 7:
            _ = try world.debug.reset(scope: scope)
            return "reset \(scope)"
        case 8:
            // Another user: user experiments draw again, and one is whitelisted.
            let country = ["NL", "DE"][pick(2)]
            let user = ["u1", "u2", "u3", nil][pick(4)]
            world.useAttributes(["country": country].merging(user.map { ["userId": $0] } ?? [:]) { $1 })
            return "country \(country), user \(user ?? "none")"
        default:
            let experiment = world.growthBookExperiments[pick(world.growthBookExperiments.count)]
            let variant = experiment.variants[pick(experiment.variants.count)].name
            _ = try world.debug.force(variant: variant, of: experiment.name, in: "GrowthBook", scope: scope)
            return "force GrowthBook's \(experiment.name) to \(variant) for \(scope)"
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyRebuildServesWhatABuildFromNothingServes(seed: UInt64) throws {
        let world = try World(experiments: 24, seed: seed)
        let random = SeededRandomSource(seed: seed &* 7919)
        var previous = try {
            let inputs = try world.inputs()
            return ServedState(entries: inputs.entries, snapshot: inputs.snapshot, shared: inputs.shared)
        }()
        for number in 0..<120 {
            let step = "step \(number): " + (try Self.change(world, random))
            let inputs = try world.inputs()
            let rebuilt = ServedState(
                entries: inputs.entries,
                snapshot: inputs.snapshot,
                shared: inputs.shared,
                previous: previous
            )
            let fresh = ServedState(entries: inputs.entries, snapshot: inputs.snapshot, shared: inputs.shared)
            try Self.expectSame(rebuilt, fresh, step)
            // The manager and the debug source keep their work too: a new pair finds the same.
            let nothing = try world.fromNothing()
            #expect(inputs.snapshot == nothing.snapshot, "\(step): the manager's snapshot")
            #expect(inputs.entries == nothing.entries, "\(step): the debug source's entries")
            previous = rebuilt
        }
    }

    /// When the experiments change (a catalog edited and reloaded), the keys
    /// are indexed again and each feature is still what a fresh build writes.
    @Test func aChangedCatalogIsIndexedAgain() throws {
        let world = try World(experiments: 24, seed: 5)
        let inputs = try world.inputs()
        let whole = ServedState(entries: inputs.entries, snapshot: inputs.snapshot, shared: inputs.shared)
        let fewer = Array(inputs.entries.dropLast(3))
        let shrunk = ServedState(entries: fewer, snapshot: inputs.snapshot, shared: inputs.shared, previous: whole)
        try Self.expectSame(
            shrunk,
            ServedState(entries: fewer, snapshot: inputs.snapshot, shared: inputs.shared),
            "three experiments fewer"
        )
        let grown = ServedState(
            entries: inputs.entries,
            snapshot: inputs.snapshot,
            shared: inputs.shared,
            previous: shrunk
        )
        try Self.expectSame(grown, whole, "the three back")
    }

    /// A user whose hashed variant is the one the whitelist would give: the
    /// whitelisted user gets the same value for another reason, and only
    /// the reason tells the two apart.
    @Test func aReasonThatChangesAloneIsServed() throws {
        let world = try World(experiments: 1, seed: 3)
        func served(_ user: String, previous: ServedState?) throws -> ServedState {
            world.useAttributes(["userId": user])
            let inputs = try world.inputs()
            return ServedState(
                entries: inputs.entries,
                snapshot: inputs.snapshot,
                shared: inputs.shared,
                previous: previous
            )
        }
        var hashedIntoV1: (user: String, state: ServedState)?
        for number in 0..<200 where hashedIntoV1 == nil {
            let state = try served("user-\(number)", previous: nil)
            if state.flags["k0"]?.variant == "V1" { hashedIntoV1 = ("user-\(number)", state) }
        }
        let (user, before) = try #require(hashedIntoV1)
        #expect(before.flags["k0"]?.reason == .split, "\(user)")
        let whitelisted = try served("u1", previous: before)
        #expect(whitelisted.flags["k0"]?.variant == "V1")
        #expect(whitelisted.flags["k0"]?.reason == .targetingMatch)
        #expect(whitelisted.flagsTag != before.flagsTag)
    }

    /// Nothing changed: the payload, its tag and its date are the previous ones.
    @Test func aRebuildWithNoChangeKeepsThePayload() throws {
        let world = try World(experiments: 12, seed: 9)
        let inputs = try world.inputs()
        let first = ServedState(entries: inputs.entries, snapshot: inputs.snapshot, shared: inputs.shared)
        let again = try world.inputs()
        let second = ServedState(
            entries: again.entries,
            snapshot: again.snapshot,
            shared: again.shared,
            previous: first,
            now: Date().addingTimeInterval(60)
        )
        #expect(second.payloadTag == first.payloadTag && second.dateUpdated == first.dateUpdated)
        #expect(second.payload == first.payload)
    }
}

extension Array where Element: Hashable {
    fileprivate func uniquedKeepingOrder() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
