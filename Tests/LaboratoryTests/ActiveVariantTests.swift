import Foundation
import Laboratory
import Testing

/// An active variant keeps its variant as a position in its experiment, and
/// answers, compares and codes exactly as when it kept a copy.
struct ActiveVariantTests {
    private let experiment = Experiment(
        name: "ButtonColor",
        keys: ["buttonColor"],
        variants: [
            Variant(name: "Blue", weight: 2, assignments: ["buttonColor": .string("blue")]),
            Variant(name: "Red", assignments: ["buttonColor": .string("red")]),
        ],
        baseline: "Blue"
    )

    @Test func aVariantOfItsExperimentAndOneOfItsOwnReadTheSame() {
        let red = experiment.variants[1]
        let own = Variant(name: "Red", weight: 5, assignments: ["buttonColor": .string("crimson")])
        let kept = ActiveVariant(source: "Local", experiment: experiment, variant: red)
        let detached = ActiveVariant(source: "Local", experiment: experiment, variant: own)
        #expect(kept.variant == red)
        #expect(detached.variant == own)  // same name, other assignments: not the experiment's
        #expect(kept != detached)
        #expect(kept.assignments.map(\.value) == [.string("red")])
        #expect(detached.assignments.map(\.value) == [.string("crimson")])
        #expect(kept == ActiveVariant(source: "Local", experiment: experiment, variant: red))
        #expect(kept.hashValue == ActiveVariant(source: "Local", experiment: experiment, variant: red).hashValue)
    }

    @Test func settingTheExperimentOrTheVariantKeepsTheOther() {
        var active = ActiveVariant(source: "Local", experiment: experiment, variant: experiment.variants[1])
        var reordered = experiment
        reordered.variants.reverse()
        active.experiment = reordered
        #expect(active.variant.name == "Red")
        #expect(active.experiment.variants.first?.name == "Red")
        var renamed = experiment
        renamed.variants = [experiment.variants[0]]
        active.experiment = renamed  // its variant is gone from the experiment: it keeps its own
        #expect(active.variant == experiment.variants[1])
        active.variant = experiment.variants[0]
        #expect(active.variant.name == "Blue")
    }

    @Test func codesAsItsFields() throws {
        let active = ActiveVariant(
            source: "Local",
            experiment: experiment,
            variant: experiment.variants[0],
            forced: true,
            forcedBy: "ana"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(active)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object.keys.sorted() == ["basis", "experiment", "forced", "forcedBy", "source", "variant"])
        #expect((object["variant"] as? [String: Any])?["name"] as? String == "Blue")
        #expect(try JSONDecoder().decode(ActiveVariant.self, from: data) == active)
        let unforced = ActiveVariant(source: "Local", experiment: experiment, variant: experiment.variants[1])
        let plain = try encoder.encode(unforced)
        #expect(!String(decoding: plain, as: UTF8.self).contains("forcedBy"))
        #expect(try JSONDecoder().decode(ActiveVariant.self, from: plain) == unforced)
    }
}
