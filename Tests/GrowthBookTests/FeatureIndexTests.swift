import Foundation
import Testing

@testable import GrowthBook

/// Large payloads are decoded in batches on several threads (while they are
/// parsed, or all at once); the features come out in order, the first of a
/// repeated key winning.
@Suite struct FeatureIndexTests {
    /// 600 features `f0`…`f599` (more than two batches) whose default value
    /// is their number, then `f7` again with -1.
    static let members: [JSONValue.Member] =
        (0..<600).map { index in
            JSONValue.Member(
                "f\(index)",
                .object([
                    .init("defaultValue", .number(Double(index))),
                    .init(
                        "rules",
                        .array([
                            .object([
                                .init("condition", .object([.init("n", .number(1))])), .init("force", .bool(true)),
                            ])
                        ])
                    ),
                ])
            )
        } + [JSONValue.Member("f7", .object([.init("defaultValue", .number(-1))]))]

    @Test func indexingDecodesEveryFeatureAndTheFirstOfARepeatedKeyWins() {
        let index = GrowthBookFeature.index(Self.members)
        #expect(index.count == 600)
        #expect((0..<600).allSatisfy { index["f\($0)"]?.defaultValue == .number(Double($0)) })
        #expect(index["f599"]?.rules.count == 1)
    }

    @Test func aPayloadDecodedWhileItIsParsedHasEveryFeature() throws {
        let text = JSONValue.object([.init("features", .object(Self.members))]).jsonText
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        #expect(payload.decodedFeatures.count == 600)
        #expect((0..<600).allSatisfy { payload.decodedFeatures["f\($0)"]?.defaultValue == .number(Double($0)) })
        var evaluator = GrowthBookEvaluator(context: payload.context(attributes: .object([.init("n", .number(1))])))
        #expect(evaluator.evaluateFeature("f150").value == .bool(true))
    }

    @Test func theStreamDecoderReturnsEveryFeatureHandedOverInOrder() {
        let decoder = FeatureStreamDecoder()
        for member in Self.members { decoder.add(member) }
        let features = decoder.finish().decoded.features
        #expect(features.map(\.defaultValue) == Self.members.map { $0.value["defaultValue"] })
        #expect(decoder.finish().decoded.features.count == Self.members.count)  // finishing again changes nothing
        #expect(decoder.finish().keys == nil)  // placed only when asked
    }

    /// The keys placed beside the decoding (by a job left without a batch,
    /// or else by the finishing thread) make the same table as all at once.
    @Test func keysPlacedWhileDecodingMakeTheSameTable() throws {
        let decoder = FeatureStreamDecoder()
        for member in Self.members { decoder.add(member) }
        decoder.placeKeys(of: Self.members)
        let (decoded, keys) = decoder.finish()
        let table = FeatureTable(keys: try #require(keys), features: decoded.features)
        #expect(table.count == 600)
        #expect(table.values.count == 600)
        #expect((0..<600).allSatisfy { table["f\($0)"]?.defaultValue == .number(Double($0)) })
        #expect(table["f600"] == nil)
    }

    /// Decoded as on one core (parsed whole, then decoded at once) or as on
    /// two (decoded in batches while it is parsed), a payload comes out the
    /// same: every feature, the first of a repeated key winning, the checks'
    /// warnings with their places, a refusal, and what a user gets.
    @Test func oneCoreDecodesAPayloadAsTwoCoresDo() throws {
        var members = Self.members
        // A rule the checks warn of, and then one they refuse, far into the payload.
        members[400] = .init("f400", ["defaultValue": 400, "rules": [["force": 2, "condition": ["x": ["$nope": 1]]]]])
        let text = JSONValue.object([.init("features", .object(members))]).jsonText
        let payloads = try [1, 2].map { try GrowthBookPayload(Data(text.utf8), decrypt: nil, cores: $0) }
        for payload in payloads {
            #expect(payload.decodedFeatures.count == 600)
            #expect(payload.decodedFeatures["f7"]?.defaultValue == .number(7))
            #expect(payload.warnings.count == 1)
            #expect(payload.warnings.first?.description.contains("feature \"f400\"") == true)
        }
        #expect(payloads[0].warnings.map(\.description) == payloads[1].warnings.map(\.description))
        let answers = payloads.map { payload in
            var evaluator = GrowthBookEvaluator(context: payload.context(attributes: ["n": 1]))
            return (0..<600).map { evaluator.evaluateFeature("f\($0)").value }
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0][150] == .bool(true))
        members[500] = .init("f500", ["defaultValue": 0, "rules": [["force": 1, "seed": 7]]])
        let refused = JSONValue.object([.init("features", .object(members))]).jsonText
        for cores in [1, 2] {
            #expect(throws: GrowthBookPayload.Invalid.self, "on \(cores) cores") {
                try GrowthBookPayload(Data(refused.utf8), decrypt: nil, cores: cores)
            }
        }
    }

    /// Features handed over slowly: each batch's job has stopped before the
    /// next batch comes, which must start another, and none is lost.
    @Test func batchesQueuedAfterTheJobsStoppedAreDecodedToo() async throws {
        let batch = FeatureStreamDecoder.batchSize
        let members = (0..<(3 * batch + 7)).map { index in
            JSONValue.Member("f\(index)", .object([.init("defaultValue", .number(Double(index)))]))
        }
        let decoder = FeatureStreamDecoder(cores: 2)
        for (position, member) in members.enumerated() {
            decoder.add(member)
            guard (position + 1) % batch == 0 else { continue }
            // Waits for a job to take the batch and stop; the bound only proves termination.
            let start = ContinuousClock.now
            while decoder.backlog != (0, 0), ContinuousClock.now - start < .seconds(30) {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(decoder.backlog == (0, 0), "batch \((position + 1) / batch) was not taken by a job")
        }
        #expect(decoder.finish().decoded.features.map(\.defaultValue) == members.map { $0.value["defaultValue"] })
    }

    /// On one core no job starts: the batches wait for ``FeatureStreamDecoder/finish()``,
    /// which decodes them all on the calling thread, in order.
    @Test func onOneCoreTheCallingThreadDecodesEveryBatch() {
        let batch = FeatureStreamDecoder.batchSize
        let members = (0..<(2 * batch + 3)).map { index in
            JSONValue.Member("f\(index)", .object([.init("defaultValue", .number(Double(index)))]))
        }
        let decoder = FeatureStreamDecoder(cores: 1)
        #expect(decoder.maximumJobs == 0)
        for member in members { decoder.add(member) }
        #expect(decoder.backlog == (0, 2))
        #expect(decoder.finish().decoded.features.map(\.defaultValue) == members.map { $0.value["defaultValue"] })
        #expect(FeatureStreamDecoder(cores: 2).maximumJobs == 1)
    }

    /// Features parsed whole (decrypted, or on one core) are decoded after
    /// the parse on the decoder's cores, alone: none of what the decoder was
    /// handed and finished before comes with them.
    @Test(arguments: [1, 2]) func featuresDecodedAfterTheParseComeAlone(cores: Int) {
        let decoder = FeatureStreamDecoder(cores: cores)
        for member in Self.members.prefix(300) { decoder.add(member) }
        #expect(decoder.finish().decoded.features.count == 300)
        let later = (0..<(FeatureStreamDecoder.batchSize + 9)).map { index in
            JSONValue.Member("g\(index)", .object([.init("defaultValue", .string("g\(index)"))]))
        }
        let decoded = decoder.decodeAfterParse(later)
        #expect(decoded.features.map(\.defaultValue) == later.map { $0.value["defaultValue"] })
        #expect(decoded.needingChecks.isEmpty)
    }

    /// The features left when the parse is over go in smaller batches
    /// (several here, the last one partial), and come out whole and in order.
    @Test func theFeaturesLeftAtTheEndComeOutInOrder() {
        let count = FeatureStreamDecoder.batchSize + 2 * FeatureStreamDecoder.tailBatchSize + 5
        let members = (0..<count).map { index in
            JSONValue.Member("f\(index)", .object([.init("defaultValue", .number(Double(index)))]))
        }
        let decoder = FeatureStreamDecoder()
        for member in members { decoder.add(member) }
        decoder.placeKeys(of: members)
        let (decoded, keys) = decoder.finish()
        #expect(decoded.features.map(\.defaultValue) == members.map { $0.value["defaultValue"] })
        #expect(keys != nil)
    }

    /// The features the checks must read are found where each batch is
    /// decoded, by their positions among all features.
    @Test func thePositionsOfTheFeaturesToCheckCountFromTheFirstFeature() {
        let count = 3 * FeatureStreamDecoder.batchSize + FeatureStreamDecoder.tailBatchSize + 9
        let faulty = Set(stride(from: 5, to: count, by: 97))
        let members = (0..<count).map { index in
            let rule: JSONValue = faulty.contains(index) ? ["force": 1, "coverage": "half"] : ["force": 1]
            return JSONValue.Member("f\(index)", ["defaultValue": 0, "rules": [rule]])
        }
        let decoder = FeatureStreamDecoder()
        for member in members { decoder.add(member) }
        #expect(decoder.finish().decoded.needingChecks == faulty.sorted())
    }

    /// Several payloads decoded at once, each by its own decoder, come out whole and in order.
    @Test func decodersRunningAtOnceKeepTheirOwnFeatures() async {
        let expected = Self.members.map { $0.value["defaultValue"] }
        await withTaskGroup(of: [JSONValue?].self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let decoder = FeatureStreamDecoder()
                    for member in Self.members { decoder.add(member) }
                    return decoder.finish().decoded.features.map(\.defaultValue)
                }
            }
            for await decoded in group { #expect(decoded == expected) }
        }
    }
}
