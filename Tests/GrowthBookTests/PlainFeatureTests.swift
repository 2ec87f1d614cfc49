import Dispatch
import Foundation
import Testing

@testable import GrowthBook

/// Plain features (force rules and rules the SDK steps over, without
/// prerequisites or filters) are decided from the context alone: by the
/// evaluator without its bookkeeping, and by the front door without taking
/// the user's turn.
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
          "filtered": {"defaultValue": 1, "rules": [{"force": 9, "filters": [{"seed": "s", "ranges": [[0, 1]]}]}]}
        }}
        """#

    static let users: [JSONValue] = [
        ["id": "u1", "country": "NL", "age": 30],
        ["id": "u2", "country": "BE", "age": 12],
        ["id": "u3", "age": "20"],
        .object([]),
    ]

    @Test func onlyForceRulesAndRulesSteppedOverWithoutPrerequisitesOrFiltersArePlain() throws {
        let features = try GrowthBookPayload(Data(Self.payload.utf8), decrypt: nil).decodedFeatures
        let plain = ["none", "forced", "stepped", "rollout", "range", "experiment", "prerequisite", "filtered"]
            .filter { features[$0]?.isPlain == true }
        #expect(plain == ["none", "forced", "stepped"])
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

    /// While another thread holds the user's turn, a plain feature is still
    /// decided (a feature that needs the turn waits for it). Bounded only so
    /// that a regression fails instead of hanging.
    @Test func aPlainFeatureIsDecidedWhileTheUsersTurnIsTaken() throws {
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
        let result = ResultBox()
        Thread {
            result.value = evaluator.evaluateFeature("forced")
            decided.signal()
        }.start()
        let inTime = decided.wait(timeout: .now() + 30) == .success
        release.signal()
        if !inTime { decided.wait() }
        #expect(inTime, "the plain feature waited for the user's turn")
        #expect(result.value?.value == 2)
    }

    /// A result handed from one thread to another, read after a semaphore says it is written.
    private final class ResultBox: @unchecked Sendable {
        var value: FeatureResult?
    }
}
