import Dispatch
import Foundation
import Testing

@testable import GrowthBook

/// Plain features (force rules and rules the SDK steps over, without
/// prerequisites or filters) are decided from the context alone: by the
/// evaluator without its bookkeeping, and by the front door without taking
/// the user's turn. Turn-free features may also have rollouts without a
/// fallback attribute: the front door decides them without the turn too.
@Suite struct PlainFeatureTests {
    static let payload = #"""
        {"features": {
          "none": {"defaultValue": 1},
          "forced": {"defaultValue": 1, "rules": [{"force": 2, "condition": {"country": "NL"}}, {"force": 3}]},
          "stepped": {"defaultValue": 1, "rules": [{"id": "r0"}, {"force": 4, "id": "r1", "condition": {"age": {"$gte": 18}}}]},
          "rollout": {"defaultValue": 1, "rules": [{"force": 5, "coverage": 0.5}]},
          "range": {"defaultValue": 1, "rules": [{"force": 5, "range": [0, 0.5]}]},
          "experiment": {"defaultValue": 1, "rules": [{"key": "e", "variations": [6, 7]}]},
          "prerequisite": {"defaultValue": 1, "rules": [{"force": 8, "parentConditions": [{"id": "forced", "condition": {"value": 2}}]}]},
          "filtered": {"defaultValue": 1, "rules": [{"force": 9, "filters": [{"seed": "s", "ranges": [[0, 1]]}]}]},
          "fallback": {"defaultValue": 1, "rules": [{"force": 10, "coverage": 0.5, "fallbackAttribute": "deviceId"}]}
        }}
        """#

    /// Rollouts of every shape the front door decides without the user's turn.
    static let rollouts = #"""
        {"features": {
          "half": {"defaultValue": "out", "rules": [{"force": "in", "coverage": 0.5, "condition": {"country": {"$ne": "BE"}}}]},
          "seeded": {"defaultValue": "out", "rules": [{"force": "in", "coverage": 0.3, "seed": "s1", "hashVersion": 2}]},
          "device": {"defaultValue": "out", "rules": [{"force": "in", "coverage": 0.5, "hashAttribute": "deviceId"}]},
          "range": {"defaultValue": "out", "rules": [{"force": "in", "range": [0.2, 0.7]}, {"force": "second"}]},
          "nobody": {"defaultValue": "out", "rules": [{"force": "in", "coverage": 0}]},
          "unknownVersion": {"defaultValue": "out", "rules": [{"force": "in", "coverage": 1, "hashVersion": 3}]},
          "forceFirst": {"defaultValue": "out", "rules": [{"force": "nl", "condition": {"country": "NL"}}, {"force": "in", "coverage": 0.5}]}
        }}
        """#

    static let users: [JSONValue] = [
        ["id": "u1", "country": "NL", "age": 30],
        ["id": "u2", "country": "BE", "age": 12],
        ["id": "u3", "age": "20"],
        .object([]),
    ]

    @Test func plainFeaturesHaveForceRulesAloneAndTurnFreeOnesRolloutsToo() throws {
        let features = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil).decodedFeatures
        let keys = [
            "none", "forced", "stepped", "rollout", "range", "experiment", "prerequisite", "filtered", "fallback",
        ]
        #expect(keys.filter { features[$0]?.isPlain == true } == ["none", "forced", "stepped"])
        // Rollouts too, unless they name a fallback attribute (hashed only with sticky bucketing).
        #expect(keys.filter { features[$0]?.isTurnFree == true } == ["none", "forced", "stepped", "rollout", "range"])
    }

    /// Each attribute that turn-free rollouts hash, once: what the front door hashes per user.
    @Test func theTableListsTheAttributesTurnFreeRolloutsHash() throws {
        let plain = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil).decodedFeatures
        #expect(plain.rolloutAttributes == ["id"])  // not `deviceId`: the fallback's rule is not turn-free
        let rollouts = try GrowthBookPayload(Data(Self.rollouts.utf8), decrypt: nil).decodedFeatures
        #expect(rollouts.rolloutAttributes == ["id", "deviceId"])
        #expect(FeatureTable().rolloutAttributes.isEmpty)
    }

    /// The front door decides rollouts from attributes it hashed when the
    /// user was made: the same results as the evaluator's, for users with and
    /// without the attributes, short ids and long ones.
    @Test func turnFreeRolloutsDecideAsTheEvaluatorDoes() throws {
        let payload = try GrowthBookPayload(Data(Self.rollouts.utf8), decrypt: nil)
        let client = GrowthBookClient(payload: payload)
        var seen: [String: Set<String>] = [:]
        for index in 0..<60 {
            var attributes: [JSONValue.Member] = []
            if index % 7 != 0 {
                attributes.append(.init("id", .string(index % 2 == 0 ? "u\(index)" : "user-with-a-long-id-\(index)")))
            }
            if index % 3 != 0 { attributes.append(.init("deviceId", .number(Double(index)))) }
            attributes.append(.init("country", .string(["NL", "BE", "US"][index % 3])))
            let user = client.user(GrowthBookAttributes(.object(attributes)))
            var evaluator = GrowthBookEvaluator(context: payload.context(attributes: .object(attributes)))
            for key in payload.features.map(\.key) {
                let expected = evaluator.evaluateFeature(key)
                #expect(user.evaluate(key) == expected, "\(key) for \(attributes)")
                // Without the hashed attributes, the walk finds and hashes them itself.
                let alone = GrowthBookEvaluator.turnFreeResult(
                    of: try #require(payload.decodedFeatures[key]),
                    attributes: AttributeTable(.object(attributes)),
                    groups: [:],
                    subjects: []
                )
                #expect(alone == expected, "\(key) for \(attributes), attributes hashed by the walk")
                seen[key, default: []].insert(expected.value.stringValue ?? "")
            }
        }
        // Every rollout that reaches anyone took some users in and left others out (to the next rule, or the default).
        for key in ["half", "seeded", "device", "forceFirst"] {
            #expect(seen[key]!.isSuperset(of: ["in", "out"]), "\(key)")
        }
        #expect(seen["range"] == ["in", "second"])
        #expect(seen["forceFirst"] == ["nl", "in", "out"])
        #expect(seen["nobody"] == ["out"] && seen["unknownVersion"] == ["out"])
    }

    /// The same result whichever way it is reached: the read-only walk, the
    /// evaluator's traced walk (which takes the general path), and the front door.
    @Test func everyWayToAFeatureDecidesAlike() throws {
        let payload = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil)
        let client = GrowthBookClient(payload: payload)
        for attributes in Self.users {
            let user = client.user(GrowthBookAttributes(attributes))
            for key in payload.features.map(\.key) + ["unknown"] {
                var plain = GrowthBookEvaluator(context: payload.context(attributes: attributes))
                var traced = GrowthBookEvaluator(context: payload.context(attributes: attributes))
                traced.trace = []
                let expected = traced.evaluateFeature(key)
                #expect(plain.evaluateFeature(key) == expected, "\(key) for \(attributes)")
                #expect(user.evaluate(key) == expected, "\(key) for \(attributes) through the front door")
            }
        }
        // The first force rule whose condition holds decides, with its id and place.
        var evaluator = GrowthBookEvaluator(context: payload.context(attributes: Self.users[0]))
        let stepped = evaluator.evaluateFeature("stepped")
        #expect(stepped.value == 4 && stepped.source == .force && stepped.ruleId == "r1" && stepped.ruleIndex == 1)
    }

    @Test func aForcedValueStillWinsOverAPlainFeature() throws {
        let client = try GrowthBookClient(
            payload: Data(Self.payload.utf8),
            options: .init(forcedFeatures: ["forced": 10])
        )
        let user = client.user(["country": "NL"])
        #expect(user.evaluate("forced").source == .override)
        #expect(user.value(for: "forced", default: 0) == 10)
        #expect(user.value(for: "stepped", default: 0) == 1)
    }

    /// While another thread holds the user's turn, a plain feature and a
    /// turn-free rollout are still decided (a feature that needs the turn waits for it). Bounded only so
    /// that a regression fails instead of hanging.
    @Test func turnFreeFeaturesAreDecidedWhileTheUsersTurnIsTaken() throws {
        let payload = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil)
        let evaluator = UserEvaluator(
            GrowthBookEvaluator(context: payload.context(attributes: Self.users[0])),
            attributes: GrowthBookAttributes(Self.users[0]),
            client: GrowthBookClient(payload: payload),
            tracks: false,
            reportsUsage: false
        )
        let taken = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let decided = DispatchSemaphore(value: 0)
        let holder = Thread {
            evaluator.withEvaluator { _ in
                taken.signal()
                release.wait()
            }
        }
        holder.start()
        taken.wait()
        let forced = ResultBox()
        let rollout = ResultBox()
        Thread {
            forced.value = evaluator.evaluateFeature("forced")
            rollout.value = evaluator.evaluateFeature("range")
            decided.signal()
        }.start()
        let inTime = decided.wait(timeout: .now() + 30) == .success
        release.signal()
        if !inTime { decided.wait() }
        #expect(inTime, "a turn-free feature waited for the user's turn")
        #expect(forced.value?.value == 2)
        var plain = GrowthBookEvaluator(context: payload.context(attributes: Self.users[0]))
        #expect(rollout.value == plain.evaluateFeature("range"))
    }

    /// A result handed from one thread to another, read after a semaphore says it is written.
    private final class ResultBox: @unchecked Sendable {
        var value: FeatureResult?
    }
}
