import Foundation
import Testing

@testable import GrowthBook

/// Large payloads are decoded in batches on several threads (while they are
/// parsed, or all at once); the features come out in order, the first of a
/// repeated key winning.
@Suite struct FeatureIndexTests {
    /// 300 features `f0`…`f299` whose default value is their number, then `f7` again with -1.
    static let members: [JSONValue.Member] =
        (0..<300).map { index in
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
        #expect(index.count == 300)
        #expect((0..<300).allSatisfy { index["f\($0)"]?.defaultValue == .number(Double($0)) })
        #expect(index["f299"]?.rules.count == 1)
    }

    @Test func aPayloadDecodedWhileItIsParsedHasEveryFeature() throws {
        let text = JSONValue.object([.init("features", .object(Self.members))]).jsonText
        let payload = try GrowthBookPayload(Data(text.utf8), decrypt: nil)
        #expect(payload.decodedFeatures.count == 300)
        #expect((0..<300).allSatisfy { payload.decodedFeatures["f\($0)"]?.defaultValue == .number(Double($0)) })
        var evaluator = GrowthBookEvaluator(context: payload.context(attributes: .object([.init("n", .number(1))])))
        #expect(evaluator.evaluateFeature("f150").value == .bool(true))
    }

    @Test func theStreamDecoderReturnsEveryFeatureHandedOverInOrder() {
        let decoder = FeatureStreamDecoder()
        for member in Self.members { decoder.add(member) }
        let features = decoder.finish()
        #expect(features.map(\.defaultValue) == Self.members.map { $0.value["defaultValue"] })
        #expect(decoder.finish().count == Self.members.count)  // finishing again changes nothing
    }
}
