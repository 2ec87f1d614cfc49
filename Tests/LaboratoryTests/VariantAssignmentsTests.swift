import Foundation
import GrowthBook
import Laboratory
import LaboratoryTesting
import Testing

/// `VariantAssignments` answers as the dictionary it replaced did, however
/// it was built, and iterates in key order.
struct VariantAssignmentsTests {
    @Test func randomEditsAgreeWithADictionary() {
        let random = SeededRandomSource(seed: 0xA55_16E)
        func pick(_ count: Int) -> Int { Int(random.nextUnit() * Double(count)) }
        let keys = (0..<12).map { "key\($0)" } + ["", "é", "e\u{301}", "Z", "a b"]
        for _ in 0..<200 {
            var model: [String: AssignmentValue] = [:]
            var assignments = VariantAssignments()
            for step in 0..<40 {
                let key = keys[pick(keys.count)]
                if pick(4) == 0 {
                    model[key] = nil
                    assignments[key] = nil
                } else {
                    let value: AssignmentValue = pick(2) == 0 ? .number(Double(step)) : .string("v\(step)")
                    model[key] = value
                    assignments[key] = value
                }
                #expect(assignments[key] == model[key])
            }
            #expect(assignments.dictionary == model)
            #expect(assignments == VariantAssignments(model))
            #expect(assignments.hashValue == VariantAssignments(model).hashValue)
            #expect(assignments.keys == model.keys.sorted())
            #expect(assignments.map(\.key) == model.keys.sorted())
            #expect(assignments.map(\.value) == model.keys.sorted().map { model[$0]! })
            #expect(assignments.count == model.count)
            for key in keys { #expect(assignments[key] == model[key]) }
        }
    }

    @Test func sharedSortedKeysEqualADictionaryOfTheSamePairs() {
        let keys = ["alpha", "beta", "gamma"]
        let shared = VariantAssignments(sortedKeys: keys, values: [.string("a"), .number(2), .bool(true)])
        let literal: VariantAssignments = ["gamma": .bool(true), "alpha": .string("a"), "beta": .number(2)]
        #expect(shared == literal)
        #expect(shared.hashValue == literal.hashValue)
        #expect(shared["beta"] == .number(2))
        #expect(shared["delta"] == nil)
        #expect("\(literal)" == "[alpha: a, beta: 2, gamma: true]")
        #expect("\(VariantAssignments())" == "[:]")
    }

    @Test func encodesAndDecodesAsAJSONObject() throws {
        let assignments: VariantAssignments = ["size": .number(12), "color": .string("blue")]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(assignments), as: UTF8.self)
        #expect(text == #"{"color":"blue","size":12}"#)
        #expect(try JSONDecoder().decode(VariantAssignments.self, from: Data(text.utf8)) == assignments)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(VariantAssignments.self, from: Data("[1]".utf8))
        }
    }
}
