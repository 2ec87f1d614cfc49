import Foundation
import LabTestSupport
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// Whatever an explanation says the app gets is what the manager serves,
/// over generated catalogs full of conflicts, forced variants and token ranges.
@Suite struct ExplanationPropertyTests {
    /// A small deterministic generator, so a failure names its seed.
    private typealias Generator = SplitMix64

    /// Two or three sources whose experiments draw their keys from a pool of
    /// four, so they collide often, some with token ranges.
    private static func catalogs(_ random: inout Generator) -> [Catalog] {
        let keys = ["color", "size", "title", "count"]
        return (0..<random.int(2..<4)).map { sourceIndex in
            let experiments = (0..<random.int(1..<5)).map { index -> Experiment in
                let name = "E\(sourceIndex)x\(index)"
                let own = keys.filter { _ in random.below(100) < 45 }
                let chosen = own.isEmpty ? [keys[random.int(0..<keys.count)]] : own
                let variants = (0..<random.int(2..<4)).map { variant in
                    Variant(
                        name: "\(name)V\(variant)",
                        weight: Double(random.int(1..<4)),
                        assignments: VariantAssignments(
                            Dictionary(
                                uniqueKeysWithValues: chosen.map {
                                    ($0, AssignmentValue.string("\(name)-\(variant)-\($0)"))
                                }
                            )
                        )
                    )
                }
                var range: HalfOpenRange?
                if random.below(100) < 40 {
                    let lower = Double(random.int(0..<8)) / 10
                    range = HalfOpenRange(lower: lower, upper: lower + Double(random.int(1..<4)) / 10)
                }
                return Experiment(
                    name: name,
                    keys: chosen,
                    variants: variants,
                    baseline: variants[0].name,
                    activeTokenRange: range
                )
            }
            return Catalog(source: "S\(sourceIndex)", experiments: experiments)
        }
    }

    @Test(arguments: 0..<300)
    func theExplanationsResultIsWhatTheManagerServes(seed: UInt64) throws {
        var random = Generator(seed: seed)
        let catalogs = Self.catalogs(&random)
        let world = try World(catalogs, token: Double(random.int(0..<100)) / 100, draws: SeededRandomSource(seed: seed))
        // Force some variants, some Inactive, across sources.
        for catalog in catalogs {
            for experiment in catalog.experiments where random.below(100) < 30 {
                if random.below(100) < 25 {
                    try world.debug.forceInactive(experiment: experiment.name, in: catalog.source)
                } else {
                    let variant = experiment.variants[random.int(0..<experiment.variants.count)]
                    try world.debug.force(variant: variant.name, of: experiment.name, in: catalog.source)
                }
            }
        }
        let snapshot = try world.manager.refresh()
        for entry in try world.debug.entries() {
            let explanation = Explanation(
                entry: entry,
                snapshot: snapshot,
                device: world.device,
                userID: nil,
                draw: try world.locals.first { $0.name == entry.source }?.draws()[entry.experiment.name],
                stabilizedAt: nil,
                time: { _ in "12:00:00" }
            )
            let context = "seed \(seed), \(entry.source)/\(entry.experiment.name)"
            // Key by key, what it says the app gets is what the app gets.
            for key in entry.experiment.keys {
                #expect(
                    explanation.assignments.first { $0.key == key } == snapshot.assignment(for: key),
                    "\(context), key \(key)"
                )
            }
            let served = snapshot.active.first {
                $0.source == entry.source && $0.experiment.name == entry.experiment.name
            }
            #expect(explanation.variant == served?.variant.name, "\(context)")
            // The words agree: the winner of every key it does not get is named with its source.
            let result = try #require(explanation.steps.last { $0.label == "result" }?.detail)
            for assignment in explanation.assignments where served == nil {
                #expect(result.contains("\(assignment.key) = \(assignment.value)"), "\(context): \(result)")
                #expect(
                    result.contains("from \(assignment.source)/\(assignment.experiment) (\(assignment.variant))"),
                    "\(context): \(result)"
                )
            }
            if served == nil, explanation.assignments.count < entry.experiment.keys.count {
                #expect(result.contains("its baseline, \(entry.experiment.baseline)"), "\(context): \(result)")
            }
            if let served {
                #expect(result.hasPrefix("the app gets \(served.variant.name): "), "\(context): \(result)")
            }
        }
    }
}
