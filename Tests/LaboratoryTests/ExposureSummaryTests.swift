import Foundation
import LaboratoryTesting
import Testing

@testable import Laboratory

@Suite struct ExposureSummaryTests {
    @Test(arguments: [(13.816, 2, 0.001), (3.841, 1, 0.05), (10.828, 1, 0.001), (0.0, 3, 1.0), (30.0, 5, 1.4727e-5)])
    func pValuesMatchTheChiSquareTable(statistic: Double, degrees: Int, expected: Double) {
        let p = ChiSquare.pValue(statistic, degrees: degrees)
        #expect(abs(p - expected) / expected < 0.01, "p(\(statistic), \(degrees)) = \(p)")
    }

    private let buttonColor = Experiment(
        name: "ButtonColor",
        keys: ["color"],
        variants: [
            Variant(name: "Red", weight: 1, assignments: ["color": "red"]),
            Variant(name: "Blue", weight: 1, assignments: ["color": "blue"]),
        ],
        baseline: "Red"
    )

    private func summary(red: Int, blue: Int) -> ExposureSummary {
        let counts = [
            ExposureCount(source: "Local", experiment: "ButtonColor", variant: "Red", count: red),
            ExposureCount(source: "Local", experiment: "ButtonColor", variant: "Blue", count: blue),
        ]
        return ExposureSummary.summaries(counts: counts, experiments: [("Local", buttonColor)])[0]
    }

    @Test func aSkewedSplitIsASampleRatioMismatch() {
        let skewed = summary(red: 600, blue: 400)
        #expect(skewed.isSampleRatioMismatch)
        #expect(skewed.total == 1000)
        #expect(skewed.rows.map(\.expectedShare) == [0.5, 0.5])
    }

    @Test func aFairSplitIsNot() {
        #expect(!summary(red: 505, blue: 495).isSampleRatioMismatch)
    }

    @Test func fewExposuresCannotBeJudgedAndForcedOnesAreCountedApart() {
        #expect(!summary(red: 3, blue: 0).canJudge)
        #expect(!summary(red: 3, blue: 0).isSampleRatioMismatch)
        #expect(summary(red: 10, blue: 10).canJudge)
        let counts = [
            ExposureCount(source: "Local", experiment: "ButtonColor", variant: "Red", count: 50, forced: 400),
            ExposureCount(source: "Local", experiment: "ButtonColor", variant: "Blue", count: 50),
        ]
        let result = ExposureSummary.summaries(counts: counts, experiments: [("Local", buttonColor)])[0]
        #expect(result.total == 100 && result.forcedExposures == 400 && !result.isSampleRatioMismatch)
    }

    @Test func variantsTheCatalogLostShowUpWithNoExpectedShare() {
        let counts = [ExposureCount(source: "Local", experiment: "ButtonColor", variant: "Green", count: 3)]
        let result = ExposureSummary.summaries(counts: counts, experiments: [("Local", buttonColor)])[0]
        #expect(result.rows.map(\.variant) == ["Red", "Blue", "Green"])
        #expect(result.rows.last?.expectedShare == 0)
    }

    @Test func queriesFilterByTimeReasonAndExperiment() throws {
        let sink = InMemoryEventSink()
        let assignment = Assignment(key: "k", value: 1, experiment: "E", variant: "V", source: "S")
        try sink.record([
            Event(assignment, reason: .activated, device: "d", time: Date(timeIntervalSince1970: 100)),
            Event(assignment, reason: .displayed, device: "d", time: Date(timeIntervalSince1970: 200)),
        ])
        #expect(try sink.latestEvents(matching: EventQuery(reasons: [.displayed]), limit: 10).count == 1)
        #expect(
            try sink.events(matching: EventQuery(since: Date(timeIntervalSince1970: 150)), after: nil, limit: 10).count
                == 1
        )
        #expect(try sink.events(matching: EventQuery(experiments: ["Other"]), after: nil, limit: 10).isEmpty)
        #expect(try sink.exposureCounts() == [ExposureCount(source: "S", experiment: "E", variant: "V", count: 1)])
    }
}
