import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct WeightedDrawTests {
    let experiment = Fixtures.experiment("E", variants: [("A", 2), ("B", 1), ("C", 1)])

    @Test(arguments: [(0.0, "A"), (0.49, "A"), (0.5, "B"), (0.74, "B"), (0.75, "C"), (0.999, "C")])
    func picksTheSliceThatHoldsTheUnit(unit: Double, expected: String) {
        #expect(WeightedDraw.variant(of: experiment, at: unit)?.name == expected)
    }

    @Test func seededGeneratorRepeatsAndStaysInTheUnitInterval() {
        let first = SeededRandomSource(seed: 7)
        let second = SeededRandomSource(seed: 7)
        for _ in 0..<1000 {
            let value = first.nextUnit()
            #expect(value == second.nextUnit())
            #expect(value >= 0 && value < 1)
        }
    }

    @Test func tokenRangeIsHalfOpen() {
        let range = HalfOpenRange(lower: 0.2, upper: 0.4)
        #expect(range.contains(0.2))
        #expect(range.contains(0.3999))
        #expect(!range.contains(0.4))
        #expect(!range.contains(0.1999))
        #expect(HalfOpenRange(lower: 0.5, upper: 1).contains(ActiveExperimentsToken(0.9999999)))
        #expect(!HalfOpenRange(lower: 0, upper: 0.5).overlaps(HalfOpenRange(lower: 0.5, upper: 1)))
        #expect(HalfOpenRange(lower: 0, upper: 0.6).overlaps(HalfOpenRange(lower: 0.5, upper: 1)))
    }
}
