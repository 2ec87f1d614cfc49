import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// GrowthBook payloads built to crash, hang or poison: each loads and
/// evaluates as the JavaScript SDK would, or is refused with its feature and
/// rule named, and the last good payload stays. Time bounds here only prove
/// termination: each is about a hundred times what the code needs.
@Suite struct HostileGrowthBookTests {
    private func source(
        _ data: Data,
        store: InMemoryStateStore = InMemoryStateStore()
    ) throws -> (GrowthBookSource, InMemoryFetcher) {
        let fetcher = InMemoryFetcher(data)
        let device = try store.device(candidate: Device(id: "device-1", token: ActiveExperimentsToken(0.5)))
        return (GrowthBookSource(store: store, device: device, fetcher: PlainPayloadFetcher(fetcher)), fetcher)
    }

    private static func payload(_ features: String) -> Data { Data("{\"features\": {\(features)}}".utf8) }

    /// Numbers no integer holds, where the SDK only prints or compares them.
    @Test(arguments: [
        #""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, [1e20]]}]}"#,
        #""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1], "meta": [{"key": 1e20}, {"key": 9.3e18}]}]}"#,
        #""f": {"defaultValue": {"a": 1e19, "b": -0.0, "c": 1.7976931348623157e308}, "rules": [{"force": {"big": 9223372036854775808}}]}"#,
        #""f": {"defaultValue": 0, "rules": [{"force": 1e19}, {"key": "e", "variations": [1e300, -5e-324]}]}"#,
        #""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1], "weights": [0.5, 0.5], "coverage": 1}]}, "g": {"defaultValue": 1e21}"#,
    ])
    func hugeNumbersLoadAndEvaluate(_ features: String) async throws {
        let (source, _) = try source(Self.payload(features))
        try await source.update()
        #expect(!source.experiments.isEmpty)
        _ = try source.activeVariants()
        _ = source.traces()
    }

    /// Numbers that must be small whole numbers: refused with feature and rule named.
    @Test(arguments: [
        ("bucketVersion", "1e19"), ("minBucketVersion", "1e19"), ("bucketVersion", "1.5"), ("weights", "[1e300, 0.5]"),
        ("minBucketVersion", "-1"), ("coverage", "\"half\""), ("namespace", "[\"ns\", 0]"),
    ])
    func outOfRangeRuleNumbersAreRefused(_ member: String, _ value: String) async throws {
        let good = Self.payload(#""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1]}]}"#)
        let (source, fetcher) = try source(good)
        try await source.update()
        fetcher.serve(
            Self.payload(
                #""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1], "\#(member)": \#(value)}]}"#
            )
        )
        let error = await #expect(throws: GrowthBookPayload.Invalid.self) { try await source.update() }
        #expect(error?.description.contains("rule 1 of feature \"f\"") == true, "\(String(describing: error))")
        #expect(error?.description.contains(member) == true)
        #expect(source.experiments.map(\.name) == ["e"])  // the last good payload stays
    }

    /// Numbers every SDK still evaluates (a hash version nobody is hashed
    /// with, a coverage it clamps, a namespace past 1): the payload loads,
    /// the rule holds nobody (or is clamped), and `lab check` warns.
    @Test(arguments: [
        ("hashVersion", "1e19", false), ("hashVersion", "3", false), ("coverage", "1e19", true),
        ("namespace", "[\"ns\", 0, 1e19]", true),
        ("filters", "[{\"seed\": \"s\", \"ranges\": [[0, 1]], \"hashVersion\": 7}]", false),
    ])
    func numbersTheSDKsStillEvaluateAreWarnings(_ member: String, _ value: String, _ bucketsUsers: Bool) throws {
        let text =
            #"{"features": {"f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1], "\#(member)": \#(value)}]}, "#
            + #""g": {"defaultValue": 2}}}"#
        let findings = PayloadLinter().check(text, file: "p.json")
        #expect(findings.map(\.severity) == [.warning], "\(findings)")
        #expect(findings.first?.description.contains("rule 1 of feature \"f\"") == true)
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        var evaluator = GrowthBookEvaluator(context: payload.context(attributes: .object([.init("id", .string("u1"))])))
        #expect(evaluator.evaluateFeature("g").value == .number(2))
        #expect((evaluator.evaluateFeature("f").source == .experiment) == bucketsUsers)
    }

    @Test func theRuntimeRefusesWhatLabCheckCallsAnError() throws {
        let text = #"{"features": {"f": {"rules": [{"key": "e", "variations": [0, 1], "bucketVersion": 1e19}]}}}"#
        let errors = PayloadLinter().check(text, file: "p.json").filter { $0.severity == .error }
        #expect(
            errors.map(\.description) == [
                "p.json:1:83: error: \"bucketVersion\" of rule 1 of feature \"f\" must be a whole number from 0 to 2147483647"
            ]
        )
        #expect(throws: GrowthBookPayload.Invalid.self) { try GrowthBookPayload(Data(text.utf8), decrypt: nil) }
    }

    /// The evaluator itself never traps, whatever a context or experiment holds.
    @Test func theEvaluatorHandlesHugeNumbersAsJavaScriptDoes() throws {
        let context = try JSONValue.parse(
            #"""
            {"attributes": {"id": "u1"}, "forcedVariations": {"a": 1e19, "b": 1.5, "c": -1e300},
             "features": {"f": {"defaultValue": 1, "rules": [{"key": "e", "variations": [0, 1], "hashVersion": 1e19}]}}}
            """#
        )
        var evaluator = GrowthBookEvaluator(context: GrowthBookContext(json: context), stickyBucketDocs: [:])
        #expect(evaluator.evaluateFeature("f").source == .defaultValue)  // no hash of version 1e19: not in it
        for experiment in [
            #"{"key": "a", "variations": [0, 1]}"#,
            #"{"key": "x", "variations": [0, 1], "force": 1e19}"#,
            #"{"key": "y", "variations": [0, 1], "bucketVersion": 1e19, "minBucketVersion": 1e300, "meta": [{"key": "0"}, {"key": "1"}]}"#,
        ] {
            _ = evaluator.run(try JSONValue.parse(experiment))
        }
        #expect(
            evaluator.run(try JSONValue.parse(#"{"key": "x", "variations": [0, 1], "force": 1e19}"#)).inExperiment
                == false
        )
    }

    @Test(arguments: [
        (1e20, "100000000000000000000"), (1e21, "1e+21"), (Double("123456789012345680000")!, "123456789012345680000"),
        (9_223_372_036_854_775_808, "9223372036854776000"), (-0.0, "0"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (Double.leastNonzeroMagnitude, "5e-324"), (12.5, "12.5"),
        (-3, "-3"),
        (0.1, "0.1"), (1e16, "10000000000000000"), (4.35, "4.35"),
    ])
    func numbersPrintAsJavaScriptPrintsThem(_ number: Double, _ expected: String) {
        #expect(JavaScriptSemantics.numberString(number) == expected)
    }

    // MARK: - A stored payload that no longer loads

    @Test func aStoredPayloadThatNoLongerLoadsIsRefusedUntilAGoodOneArrives() async throws {
        let store = InMemoryStateStore()
        let bad = Self.payload(
            #""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1], "bucketVersion": 1e19}]}"#
        )
        try store.setPayload(StoredPayload(data: bad, etag: "\"v1\"", fetchedAt: Date()), source: "GrowthBook")
        let good = Self.payload(#""f": {"defaultValue": 0, "rules": [{"key": "e", "variations": [0, 1]}]}"#)
        let (source, _) = try source(good, store: store)
        #expect(source.experiments.isEmpty)
        #expect(try source.activeVariants().isEmpty)  // baselines
        let why = try #require(source.refusal)
        #expect(why.contains("bucketVersion") && why.contains("refused"))
        #expect(source.summary == why)
        try await source.update()
        #expect(source.refusal == nil)
        #expect(source.experiments.map(\.name) == ["e"])
        #expect(try store.payload(source: "GrowthBook")?.data == good)
    }

    // MARK: - Bounded evaluation

    private static func duration(_ body: () throws -> Void) rethrows -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return clock.now - start
    }

    @Test func aThousandPrerequisitesInAChainEndWithoutOverflowingTheStack() throws {
        let features = (0..<1_000).map { index in
            #""f\#(index)": {"defaultValue": \#(index), "rules": [{"parentConditions": [{"id": "f\#(index + 1)", "condition": {"value": {"$exists": true}}, "gate": true}], "force": 1}]}"#
        }.joined(separator: ",")
        let payload = try GrowthBookPayload(Self.payload(features), decrypt: nil)
        #expect(payload.warnings.contains { $0.message.contains("chain of 64 prerequisites") })
        var evaluator = GrowthBookEvaluator(context: GrowthBookContext(features: payload.decodedFeatures))
        let elapsed = Self.duration {
            // Deeper than the evaluator follows: counted as a cycle, as GrowthBook reports one.
            #expect(evaluator.evaluateFeature("f0").source == .cyclicPrerequisite)
            // Near the end the chain is short enough: f1000 does not exist, so the gate closes.
            #expect(evaluator.evaluateFeature("f990").source == .prerequisite)
        }
        #expect(elapsed < .seconds(6))
    }

    @Test func prerequisitesThatFanOutAreEvaluatedOnceEach() throws {
        // Each level names the next one twice: 2^30 paths, 31 features.
        let features =
            (0..<30).map { level in
                let parent = #"{"id": "l\#(level + 1)", "condition": {"value": true}}"#
                return
                    #""l\#(level)": {"defaultValue": true, "rules": [{"parentConditions": [\#(parent), \#(parent)], "force": true}]}"#
            }.joined(separator: ",") + #", "l30": {"defaultValue": true}"#
        let payload = try GrowthBookPayload(Self.payload(features), decrypt: nil)
        var evaluator = GrowthBookEvaluator(context: GrowthBookContext(features: payload.decodedFeatures))
        let elapsed = Self.duration { #expect(evaluator.evaluateFeature("l0").source == .force) }
        #expect(elapsed < .seconds(10))  // 2^30 paths would take hours; the margin is for a loaded machine
    }

    @Test func cyclesThatFanOutStayBounded() throws {
        // Every feature names the next twice and the last names the first: no result is cycle-free.
        let features = (0..<40).map { level -> String in
            let parent = #"{"id": "c\#((level + 1) % 40)", "condition": {"value": true}}"#
            return
                #""c\#(level)": {"defaultValue": true, "rules": [{"parentConditions": [\#(parent), \#(parent)], "force": true}]}"#
        }.joined(separator: ",")
        let payload = try GrowthBookPayload(Self.payload(features), decrypt: nil)
        #expect(payload.warnings.contains { $0.message.contains("lead back") })
        var evaluator = GrowthBookEvaluator(context: GrowthBookContext(features: payload.decodedFeatures))
        let elapsed = Self.duration { #expect(evaluator.evaluateFeature("c0").source == .cyclicPrerequisite) }
        #expect(elapsed < .seconds(10))
    }

    @Test func aBacktrackingRegexGivesUpAndEvaluatesAsFalse() throws {
        let features = (0..<40).map { index in
            #""r\#(index)": {"defaultValue": "off", "rules": [{"condition": {"id": {"$regex": "^([0-9a-fA-F-]+)+x\#(index)$"}}, "force": "on"}]}"#
        }.joined(separator: ",")
        let payload = try GrowthBookPayload(Self.payload(features), decrypt: nil)
        let id = "0123456789abcdef-0123456789abcdef-0123"
        var evaluator = GrowthBookEvaluator(
            context: GrowthBookContext(
                attributes: .object([.init("id", .string(id))]),
                features: payload.decodedFeatures
            )
        )
        let elapsed = Self.duration {
            for index in 0..<40 { #expect(evaluator.evaluateFeature("r\(index)").value == .string("off")) }
        }
        #expect(elapsed < .seconds(30))
        #expect(BoundedRegex.patternsThatGaveUp.contains("^([0-9a-fA-F-]+)+x7$"))
        // A pattern that matches still does, at once.
        #expect(
            ConditionEvaluator.evaluate(
                try JSONValue.parse(#"{"id": {"$regex": "^[0-9a-f-]+$"}}"#),
                attributes: .object([.init("id", .string(id))])
            )
        )
    }

    /// A bandit of 20,000 leaves that 500 rules refer to, the matching leaf
    /// last: its leaf is found once per user, not once per rule; leaves of the
    /// wrong shape (no weights, a leaf id that is an object) do not crash.
    @Test func aBanditOfManyLeavesIsSearchedOncePerUser() throws {
        let leaves = (0..<20_000).map { #"{"leafId": \#($0), "condition": {"plan": "p\#($0)"}, "weights": [1, 0]}"# }
        let odd =
            #"{"leafId": {"x": 1}, "condition": {"plan": "odd"}}, {"leafId": 7, "condition": {"plan": "last"}, "weights": [0, 1]}"#
        let features = (0..<500).map { index in
            #""f\#(index)": {"defaultValue": "none", "rules": [{"key": "b\#(index)", "contextualVariations": ["a", "b"], "#
                + #""weights": [0.5, 0.5], "coverage": 1, "contextualBanditRef": "cb"}]}"#
        }.joined(separator: ",")
        let text =
            #"{"features": {\#(features)}, "contextualBandits": {"cb": {"contexts": [\#(leaves.joined(separator: ",")), \#(odd)]}}}"#
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        var evaluator = GrowthBookEvaluator(
            context: payload.context(attributes: .object([.init("id", .string("u")), .init("plan", .string("last"))]))
        )
        let elapsed = Self.duration {
            for index in 0..<500 { #expect(evaluator.evaluateFeature("f\(index)").value == .string("b")) }
        }
        #expect(elapsed < .seconds(30))
        // A leaf without weights: GrowthBook's bucket math falls back to equal weights.
        evaluator.context.attributes = .object([.init("id", .string("u")), .init("plan", .string("odd"))])
        let result = evaluator.evaluateFeature("f0")
        #expect(result.source == .experiment)
    }

    @Test func stickyBucketingIsLinearInTheNumberOfFeatures() async throws {
        let features = (0..<8_000).map { index in
            #""s\#(index)": {"defaultValue": 0, "rules": [{"key": "s\#(index)", "variations": [0, 1], "meta": [{"key": "0"}, {"key": "1"}], "bucketVersion": 1}]}"#
        }.joined(separator: ",")
        let (source, _) = try source(Self.payload(features))
        try await source.update()
        var counts: [Int] = []
        let elapsed = try Self.duration {
            counts.append(try source.activeVariants().count)
            counts.append(try source.activeVariants().count)  // now from the stored sticky buckets
        }
        #expect(counts == [8_000, 8_000])
        #expect(elapsed < .seconds(200))
    }
}
