import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

/// The resolver sorts only the forced candidates and takes the rest in the
/// order they come when it is the priority order: the result is the one a
/// sort of every candidate by the rule gives, in or out of order.
@Suite struct ConflictOrderTests {
    /// The rule spelled out: forced first, then source rank, then source and name; ties keep their order.
    private static func reference(
        _ candidates: [ActiveVariant],
        sourceOrder: [String]
    ) -> (accepted: [ActiveVariant], conflicts: [Conflict]) {
        let rank = Dictionary(sourceOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = candidates.indices.sorted {
            let a = (candidates[$0].forced ? 0 : 1, rank[candidates[$0].source] ?? Int.max)
            let b = (candidates[$1].forced ? 0 : 1, rank[candidates[$1].source] ?? Int.max)
            if a != b { return a < b }
            let c = (candidates[$0].source, candidates[$0].experiment.name)
            let d = (candidates[$1].source, candidates[$1].experiment.name)
            return c < d || (c == d && $0 < $1)
        }
        // Each candidate in that order: resolved one by one, each alone after the ones before it.
        return ConflictResolver.resolve(ordered.map { candidates[$0] }, sourceOrder: sourceOrder)
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func theResolverOrdersAsAFullSortWould(seed: UInt64) {
        let random = SeededRandomSource(seed: seed)
        func pick(_ count: Int) -> Int { min(count - 1, Int(random.nextUnit() * Double(count))) }
        let sources = ["A", "B", "C"]
        var candidates: [ActiveVariant] = []
        for source in sources {
            for number in 0..<40 {
                let keys = ["k\(pick(30))", "k\(pick(30))"]
                let variant = Variant(
                    name: "V\(pick(3))",
                    assignments: VariantAssignments(
                        Dictionary(keys.map { ($0, AssignmentValue.string("\(source)\(number)")) }) { a, _ in a }
                    )
                )
                let experiment = Experiment(
                    name: "E\(String(format: "%02d", number))",
                    keys: Array(Set(keys)).sorted(),
                    variants: [variant],
                    baseline: variant.name
                )
                candidates.append(
                    ActiveVariant(source: source, experiment: experiment, variant: variant, forced: pick(8) == 0)
                )
            }
        }
        // In the priority order but for the forced ones, then shuffled a little, then wholly.
        var shuffled = candidates
        for _ in 0..<3 { shuffled.swapAt(pick(shuffled.count), pick(shuffled.count)) }
        for order in [sources, ["C", "A", "B"]] {
            for given in [candidates, shuffled, candidates.reversed()] {
                let resolved = ConflictResolver.resolve(given, sourceOrder: order)
                let expected = Self.reference(given, sourceOrder: order)
                #expect(resolved.accepted == expected.accepted)
                #expect(resolved.conflicts == expected.conflicts)
            }
        }
    }
}
