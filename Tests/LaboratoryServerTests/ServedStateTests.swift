import Foundation
import GrowthBook
import Laboratory
import LaboratoryTesting
import Testing

@testable import LaboratoryServer

/// What `lab serve` answers, built from the debug source's entries and the
/// manager's snapshot, without a network.
@Suite struct ServedStateTests {
    private static let catalog = """
        {"source": "Local", "experiments": [
          {"name": "ButtonColor", "keys": ["buttonColor"], "baseline": "Red", "variants": [
            {"name": "Red", "assignments": {"buttonColor": "red"}},
            {"name": "Blue", "assignments": {"buttonColor": "blue"}}]},
          {"name": "Size", "keys": ["size"], "activeTokenRange": [0.9, 1.0], "baseline": "Small", "variants": [
            {"name": "Small", "assignments": {"size": 10}}, {"name": "Large", "assignments": {"size": 14}}]}]}
        """

    private struct World {
        let store = InMemoryStateStore()
        let debug: DebugSource
        let manager: AssignmentsManager

        init() throws {
            let catalog = try CatalogDecoder().decode(Data(ServedStateTests.catalog.utf8), file: "c.json")
            let device = try store.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.5)))
            let local = LocalSource(catalog: catalog, store: store, device: device, random: SeededRandomSource(seed: 7))
            debug = DebugSource(sources: [local], store: store)
            manager = AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
        }

        func served(previous: ServedState? = nil) throws -> ServedState {
            let snapshot = try manager.refresh()
            return ServedState(entries: try debug.entries(), snapshot: snapshot, previous: previous)
        }
    }

    private static func payload(_ state: ServedState) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: state.payload) as? [String: Any]
        return try #require(object?["features"] as? [String: Any])
    }

    /// A rebuild writes again only the features whose flag changed and
    /// keeps the others' text: what it serves is what a build from nothing serves.
    @Test func aRebuildServesWhatABuildFromNothingServes() throws {
        let world = try World()
        var previous = try world.served()
        for step in ["Blue", "Inactive", "Red", "Blue"] {
            try world.debug.force(variant: step, of: "ButtonColor")
            if step == "Red" {
                try world.debug.force(variant: "Large", of: "Size", scope: Scope(attributes: ["id": "qa-7"]))
            }
            let rebuilt = try world.served(previous: previous)
            let fresh = try world.served()
            #expect(rebuilt.payloadTag == fresh.payloadTag, "after forcing \(step)")
            #expect(rebuilt.flagsTag == fresh.flagsTag, "after forcing \(step)")
            #expect(try Self.payload(rebuilt) as NSDictionary == Self.payload(fresh) as NSDictionary)
            #expect(rebuilt.payloadTag != previous.payloadTag, "forcing \(step) changes the payload")
            previous = rebuilt
        }
    }

    @Test func aForcedVariantIsAPinnedExperimentRuleAndStatic() throws {
        let world = try World()
        try world.debug.force(variant: "Blue", of: "ButtonColor")
        let state = try world.served()
        let flag = try #require(state.flags["buttonColor"])
        #expect(flag.value == "blue" && flag.variant == "Blue" && flag.reason == .static && flag.forced)
        let feature = try #require(try Self.payload(state)["buttonColor"] as? [String: Any])
        #expect(feature["defaultValue"] as? String == "red")
        let rule = try #require((feature["rules"] as? [[String: Any]])?.first)
        #expect(rule["key"] as? String == "ButtonColor")
        #expect(rule["variations"] as? [String] == ["red", "blue"])
        #expect(rule["weights"] as? [Double] == [0, 1])
        #expect(rule["coverage"] as? Double == 1)
        #expect((rule["meta"] as? [[String: String]])?.map { $0["name"] ?? "" } == ["Red", "Blue"])
        // A version of its own for this variant; no minimum that would exclude older sticky buckets.
        #expect((rule["bucketVersion"] as? Int ?? 0) >= 1 << 30 && rule["minBucketVersion"] == nil)
    }

    @Test func anInactiveExperimentServesItsBaselineWithoutARule() throws {
        let world = try World()
        let state = try world.served()
        // Token 0.5 is outside Size's range [0.9, 1).
        let flag = try #require(state.flags["size"])
        #expect(flag.value == 10 && flag.variant == "Small" && flag.reason == .default && !flag.forced)
        let feature = try #require(try Self.payload(state)["size"] as? [String: Any])
        #expect(feature["defaultValue"] as? Int == 10)
        #expect((feature["rules"] as? [Any])?.isEmpty == true)
        // A drawn variant is a split.
        #expect(state.flags["buttonColor"]?.reason == .split)
    }

    @Test func forcingInactiveDisablesAndChangesTheTags() throws {
        let world = try World()
        let before = try world.served()
        try world.debug.forceInactive(experiment: "ButtonColor")
        let after = try world.served()
        let flag = try #require(after.flags["buttonColor"])
        #expect(flag.reason == .disabled && flag.value == "red" && flag.forced)
        #expect(before.payloadTag != after.payloadTag)
        #expect(before.flagsTag != after.flagsTag)
        #expect(after.keys == ["buttonColor", "size"])
    }

    /// A catalog beside a GrowthBook payload whose rules target users.
    private struct SharedWorld {
        let store = InMemoryStateStore()
        let debug: DebugSource
        let manager: AssignmentsManager
        let growthBook: GrowthBookSource

        static let payload = """
            {"features": {
              "headline": {"defaultValue": "Hello", "rules": [
                {"force": "Hoi", "condition": {"country": "NL"}},
                {"key": "headline-test", "variations": ["Hello", "Welcome"], "coverage": 1, "weights": [0.5, 0.5],
                 "condition": {"plan": "pro"}, "meta": [{"key": "0", "name": "Plain"}, {"key": "1", "name": "Warm"}]}]},
              "buttonColor": {"defaultValue": "grey"}
            }}
            """

        init(payload: String = SharedWorld.payload) throws {
            let catalog = try CatalogDecoder().decode(Data(ServedStateTests.catalog.utf8), file: "c.json")
            let device = try store.device(candidate: Device(id: "d1", token: ActiveExperimentsToken(0.5)))
            let local = LocalSource(catalog: catalog, store: store, device: device, random: SeededRandomSource(seed: 7))
            growthBook = GrowthBookSource(
                store: store,
                device: device,
                attributes: ["plan": "pro"],
                fetcher: PlainPayloadFetcher(InMemoryFetcher())
            )
            try growthBook.accept(Data(payload.utf8))
            debug = DebugSource(sources: [local, growthBook], store: store)
            manager = AssignmentsManager(sources: [debug], store: store, events: InMemoryEventSink(), device: device)
        }

        func served(previous: ServedState? = nil, now: Date = Date()) throws -> ServedState {
            let snapshot = try manager.refresh()
            let forced = try store.forcedVariants()
            return ServedState(
                entries: try debug.entries(),
                snapshot: snapshot,
                shared: debug.leaves.compactMap { $0.sharing?.sharedFeatures(forcing: forced) },
                previous: previous,
                now: now
            )
        }
    }

    private static func context(_ members: [String: String]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) })
    }

    /// A bandit rule passes through with its bandit, so SDKs reading `lab
    /// serve` route by leaf, and so does the server's own evaluation.
    @Test func contextualBanditsPassThroughWithTheirFeatures() throws {
        let world = try SharedWorld(
            payload: #"""
                {"features": {"cta": {"defaultValue": "none", "rules": [
                  {"key": "cta-bandit", "hashAttribute": "id", "hashVersion": 2, "coverage": 1,
                   "contextualVariations": ["control", "treatment"], "weights": [0.5, 0.5],
                   "meta": [{"key": "0"}, {"key": "1"}], "contextualBanditRef": "cb"}]}},
                 "contextualBandits": {"cb": {"banditVersion": 3, "contexts": [
                   {"leafId": 1, "condition": {"plan": "enterprise"}, "weights": [1, 0]}]}}}
                """#
        )
        let state = try world.served()
        let document = try JSONSerialization.jsonObject(with: state.payload) as? [String: Any]
        let bandit = try #require((document?["contextualBandits"] as? [String: Any])?["cb"] as? [String: Any])
        #expect(bandit["banditVersion"] as? Int == 3)
        let enterprise = state.flag("cta", context: Self.context(["targetingKey": "1", "plan": "enterprise"]))
        #expect(enterprise?.value == "control", "\(String(describing: enterprise))")
    }

    @Test func upstreamFeaturesPassThroughWithTheirTargeting() throws {
        let world = try SharedWorld()
        let state = try world.served()
        let headline = try #require(try Self.payload(state)["headline"] as? [String: Any])
        let rules = try #require(headline["rules"] as? [[String: Any]])
        #expect(rules.count == 2)
        #expect((rules[0]["condition"] as? [String: String]) == ["country": "NL"])
        #expect((rules[1]["condition"] as? [String: String]) == ["plan": "pro"])
        // Another user is evaluated against the rules: the Dutch get the force rule.
        let dutch = try #require(
            state.flag("headline", context: Self.context(["targetingKey": "u1", "country": "NL"]))
        )
        #expect(dutch.value == "Hoi" && dutch.reason == .targetingMatch && dutch.experiment == "headline: force")
        let free = try #require(state.flag("headline", context: Self.context(["targetingKey": "u2", "plan": "free"])))
        #expect(free.value == "Hello" && free.reason == .default && free.experiment == nil)
        let pro = try #require(state.flag("headline", context: Self.context(["targetingKey": "u3", "plan": "pro"])))
        #expect(pro.reason == .split && pro.experiment == "headline-test" && ["Plain", "Warm"].contains(pro.variant))
        // No context: this device, as the console shows it.
        let device = try #require(state.flag("headline", context: nil))
        let served = try #require(try world.manager.refresh().assignment(for: "headline"))
        #expect(device.value == served.value && device.variant == served.variant && device.source == "GrowthBook")
        #expect(state.flag("headline", context: .object([])) == device)
    }

    @Test func aForcedUpstreamExperimentReachesEveryUserAndInactiveRemovesIt() throws {
        let world = try SharedWorld()
        try world.debug.force(variant: "Warm", of: "headline-test")
        let forced = try world.served()
        for index in 0..<50 {
            let flag = try #require(
                forced.flag("headline", context: Self.context(["targetingKey": "u\(index)", "country": "NL"]))
            )
            #expect(flag.value == "Welcome" && flag.variant == "Warm" && flag.reason == .static && flag.forced)
        }
        let rule = try #require((try Self.payload(forced)["headline"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rule.first?["key"] as? String == "headline-test" && rule.first?["condition"] == nil)
        try world.debug.forceInactive(experiment: "headline-test")
        let inactive = try world.served(previous: forced)
        let rules = try #require(
            (try Self.payload(inactive)["headline"] as? [String: Any])?["rules"] as? [[String: Any]]
        )
        #expect(rules.count == 1 && rules[0]["force"] as? String == "Hoi")
        #expect(
            inactive.flag("headline", context: Self.context(["targetingKey": "x", "plan": "pro"]))?.value == "Hello"
        )
    }

    @Test func aCatalogKeyActiveOnThisDeviceWinsOverTheUpstreamFeature() throws {
        let world = try SharedWorld()
        let state = try world.served()
        // The catalog's ButtonColor is active here (no token range), so the
        // payload pins its variant rather than passing GrowthBook's through.
        let feature = try #require(try Self.payload(state)["buttonColor"] as? [String: Any])
        #expect(feature["defaultValue"] as? String == "red")
        #expect(state.flags["buttonColor"]?.source == "Local")
        #expect(state.keys.filter { $0 == "buttonColor" }.count == 1)
        #expect(state.keys.contains("headline"))
    }

    @Test func anUnchangedRebuildKeepsThePayloadAndItsDate() throws {
        let world = try SharedWorld()
        let first = try world.served(now: Date(timeIntervalSince1970: 1_800_000_000))
        let again = try world.served(previous: first, now: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(again.payload == first.payload && again.payloadTag == first.payloadTag)
        try world.debug.force(variant: "Warm", of: "headline-test")
        let changed = try world.served(previous: again, now: Date(timeIntervalSince1970: 1_800_000_200))
        #expect(changed.payloadTag != first.payloadTag)
        let date = (try JSONSerialization.jsonObject(with: changed.payload) as? [String: Any])?["dateUpdated"]
        #expect(date as? String == "2027-01-15T08:03:20Z")
    }

    @Test func requestsAreCountedOverTheLastMinute() {
        var activity = ServedStateHub.Activity()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for offset in [0.0, 0.5, 1, 30, 59] { activity.count(at: start + offset) }
        #expect(activity.requestsLastMinute == 5)
        activity.advance(to: start + 60.2)  // the first second has left the window
        #expect(activity.requestsLastMinute == 3)
        activity.count(at: start + 89)
        activity.advance(to: start + 89.5)
        #expect(activity.requestsLastMinute == 3)  // seconds 30, 59 and 89
        activity.advance(to: start + 500)
        #expect(activity.requestsLastMinute == 0)
    }

    // MARK: - Scoped forced variants and the seams with real SDKs

    /// Evaluates the served payload as a GrowthBook SDK would for a user, with what it tracks.
    private static func evaluate(
        _ state: ServedState,
        _ key: String,
        _ attributes: [String: String]
    ) throws -> (value: JSONValue, tracked: String?) {
        let payload = try GrowthBookPayload(state.payload, decrypt: nil)
        var evaluator = GrowthBookEvaluator(
            context: GrowthBookContext(attributes: context(attributes), features: payload.decodedFeatures)
        )
        let result = evaluator.evaluateFeature(key)
        let tracked = result.experimentResult.map { _ in
            "\(result.experiment?["key"]?.stringValue ?? "")/\(result.experimentResult?.key ?? "")"
        }
        return (result.value, tracked)
    }

    @Test func aScopedForcedVariantReachesItsUsersOnlyTrackedAndStatic() throws {
        let world = try World()
        let phone = try Scope(parsing: ["id=qa-phone-7"])
        try world.debug.force(variant: "Blue", of: "ButtonColor", scope: phone, tester: "ana")
        let state = try world.served()
        // This device (no attributes) and every other user keep the draw, Red.
        #expect(state.flags["buttonColor"]?.variant == "Red")
        let phoneGets = try Self.evaluate(state, "buttonColor", ["id": "qa-phone-7"])
        #expect(phoneGets.value == .string("blue") && phoneGets.tracked == "ButtonColor/Blue")
        let otherGets = try Self.evaluate(state, "buttonColor", ["id": "someone-else"])
        #expect(otherGets.value == .string("red") && otherGets.tracked == "ButtonColor/Red")
        // OFREP: a context in the scope gets the variant as STATIC, others as before.
        let flag = try #require(state.flag("buttonColor", context: Self.context(["targetingKey": "qa-phone-7"])))
        #expect(flag.value == "blue" && flag.reason == .static && flag.forced)
        let other = try #require(state.flag("buttonColor", context: Self.context(["targetingKey": "qa-phone-8"])))
        #expect(other.value == "red" && other.reason == .split && !other.forced)
        // A scoped Inactive: the baseline for its users, nothing tracked.
        try world.debug.forceInactive(experiment: "ButtonColor", scope: phone)
        let inactive = try world.served()
        let phoneNow = try Self.evaluate(inactive, "buttonColor", ["id": "qa-phone-7"])
        #expect(phoneNow.value == .string("red") && phoneNow.tracked == nil)
        let disabled = inactive.flag("buttonColor", context: Self.context(["targetingKey": "qa-phone-7"]))
        #expect(disabled?.reason == .disabled)
    }

    @Test func anSDKThatSetsNoIDGetsWhatThisDeviceGets() throws {
        let world = try World()
        try world.debug.force(variant: "Blue", of: "ButtonColor")
        let state = try world.served()
        for attributes in [[:], ["deviceId": "phone-1"]] as [[String: String]] {
            #expect(try Self.evaluate(state, "buttonColor", attributes).value == .string("blue"), "\(attributes)")
        }
        // With an id, the experiment rule comes first, so the tracking callback fires.
        #expect(try Self.evaluate(state, "buttonColor", ["id": "u"]).tracked == "ButtonColor/Blue")
    }

    @Test func exposuresMayNameAVariationByItsMetaKey() throws {
        let world = try SharedWorld(
            payload: SharedWorld.payload.replacingOccurrences(of: #""key": "1""#, with: #""key": "warm""#)
        )
        let state = try world.served()
        #expect(state.variantAliases["headline-test"] == ["0": "Plain", "warm": "Warm"])
        // What a GrowthBook tracking callback has at hand: `result.key`, the meta key.
        let body =
            #"[{"experiment": "headline-test", "variant": "warm"}, {"experiment": "ButtonColor", "variant": "Blue"}]"#
        let events = try PostedEvent.events(
            in: Data(body.utf8),
            experiments: state.experiments,
            aliases: state.variantAliases,
            device: "d",
            at: Date()
        )
        #expect(events.map(\.variant) == ["Warm", "Blue"])
    }

    /// An exposure an SDK posts with its user's attributes is QA data
    /// exactly when that user's variant was forced for them.
    @Test func anExposureOfAVariantForcedForItsUserIsMarkedForced() throws {
        let world = try World()
        try world.debug.force(
            variant: "Blue",
            of: "ButtonColor",
            scope: Scope(attributes: ["id": "qa-7"]),
            tester: "ana"
        )
        let state = try world.served()
        let body = """
            [{"experiment": "ButtonColor", "variant": "Blue", "attributes": {"id": "qa-7"}},
             {"experiment": "ButtonColor", "variant": "Red", "attributes": {"id": "someone", "age": 7, "tags": ["a"]}},
             {"experiment": "ButtonColor", "variant": "Red"}]
            """
        let events = try PostedEvent.events(
            in: Data(body.utf8),
            experiments: state.experiments,
            forcing: state.forcing,
            device: "d",
            at: Date()
        )
        #expect(events.map(\.forced) == [true, false, false])
        #expect(events.map(\.tester) == ["ana", nil, nil])
        // Forced for everyone: every exposure is QA's, with or without attributes.
        try world.debug.force(variant: "Red", of: "ButtonColor", tester: "bo")
        let everyone = try PostedEvent.events(
            in: Data(body.utf8),
            experiments: state.experiments,
            forcing: try world.served().forcing,
            device: "d",
            at: Date()
        )
        #expect(everyone.map(\.tester) == ["ana", "bo", "bo"])
        // Attributes that are not an object are said to be wrong, not ignored.
        #expect(throws: PostedEvent.Invalid.self) {
            try PostedEvent.events(
                in: Data(#"[{"experiment": "ButtonColor", "variant": "Red", "attributes": 7}]"#.utf8),
                experiments: state.experiments,
                device: "d",
                at: Date()
            )
        }
    }

    /// A typo of a standard reason, or a value the variant does not assign,
    /// would be stored as an exposure no analysis counts: refused, saying why.
    @Test func aMistypedReasonOrAForeignValueIsRefusedWithTheReason() throws {
        let world = try World()
        let state = try world.served()
        func refusal(_ body: String) -> String? {
            do {
                _ = try PostedEvent.events(in: Data(body.utf8), experiments: state.experiments, device: "d", at: Date())
                return nil
            } catch {
                return error.description
            }
        }
        let typo = refusal(#"[{"experiment": "ButtonColor", "variant": "Blue", "reason": "displayd"}]"#)
        #expect(typo?.contains(#"no reason "displayd"; did you mean "displayed"?"#) == true)
        let value = refusal(#"[{"experiment": "ButtonColor", "variant": "Blue", "value": "nope"}]"#)
        #expect(value?.contains(#"variant "Blue" of "ButtonColor" assigns"#) == true, "\(value ?? "accepted")")
        // A custom reason and the variant's own value are taken.
        #expect(refusal(#"[{"experiment": "ButtonColor", "variant": "Blue", "reason": "purchased"}]"#) == nil)
    }
}
