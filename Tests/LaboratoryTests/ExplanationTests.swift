import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// `lab explain` and the console's detail pane, for local experiments.
@Suite struct ExplanationTests {
    private func explain(_ world: World, _ experiment: String) throws -> [String] {
        let snapshot = try world.manager.refresh()
        let entry = try #require(try world.debug.entries().first { $0.experiment.name == experiment })
        let explanation = Explanation(
            entry: entry,
            snapshot: snapshot,
            device: world.device,
            userID: nil,
            draw: try world.locals[0].draws()[experiment],
            stabilizedAt: try world.locals[0].stabilization(),
            time: { _ in "12:00:00" }
        )
        return explanation.steps.map { "\($0.label): \($0.detail)" }
    }

    private let catalog = Catalog(
        source: "Local",
        experiments: [
            Fixtures.experiment(
                "Ranged",
                variants: [("Red", 1), ("Blue", 1)],
                range: HalfOpenRange(lower: 0.2, upper: 0.4)
            )
        ]
    )

    @Test func insideTheRange() throws {
        let steps = try explain(try World([catalog], token: 0.3), "Ranged")
        #expect(
            steps == [
                "experiment: device-level, random bucketing, running, baseline Red",
                "subject: this device, device-1",
                "token: device token 0.3000 is inside the range [0.2, 0.4)",
                "draw: drew Red at 12:00:00",
                "source: Local runs Red (drawn)",
                "result: the app gets Red: color = Red-color",
            ]
        )
    }

    /// While a payload was first fetched, the pane said "this experiment was
    /// set aside" of an experiment in no conflict: its variant was newer than
    /// the snapshot it was explained with.
    @Test func aVariantNewerThanTheSnapshotIsNotCalledSetAside() throws {
        let world = try World([catalog], token: 0.3)
        let entry = try #require(try world.debug.entries().first { $0.experiment.name == "Ranged" })
        #expect(entry.effective != nil)
        let explanation = Explanation(
            entry: entry,
            snapshot: AssignmentsSnapshot(),
            device: world.device,
            userID: nil,
            draw: try world.locals[0].draws()["Ranged"],
            stabilizedAt: nil,
            time: { _ in "12:00:00" }
        )
        #expect(explanation.steps.last?.detail == "the app uses its baseline, Red, for color")
    }

    @Test func outsideTheRange() throws {
        let steps = try explain(try World([catalog], token: 0.7), "Ranged")
        #expect(steps.contains("token: device token 0.7000 is outside the range [0.2, 0.4)"))
        #expect(steps.contains("draw: no draw on this device"))
        #expect(steps.last == "result: the app uses its baseline, Red, for color")
    }

    @Test func forced() throws {
        let world = try World([catalog], token: 0.7)
        try world.debug.force(variant: "Blue", of: "Ranged")
        let steps = try explain(world, "Ranged")
        #expect(steps.contains("forced: forced to Blue through the debug source, for everyone"))
        #expect(steps.last == "result: the app gets Blue: color = Blue-color")
    }

    @Test func aStaleRequestIsIgnored() throws {
        let store = InMemoryStateStore()
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "Ranged", variant: "Purple"))
        let steps = try explain(try World([catalog], token: 0.3, store: store), "Ranged")
        #expect(
            steps.contains("forced: the forced variant Purple (for everyone) is stale (no such variant) and ignored")
        )
        #expect(steps.last == "result: the app gets Red: color = Red-color")
    }

    @Test func stabilizedAndHashed() throws {
        let hashed = Catalog(
            source: "Local",
            experiments: [
                Experiment(
                    name: "Hashed",
                    keys: ["k"],
                    variants: [Variant(name: "A", assignments: ["k": 1]), Variant(name: "B", assignments: ["k": 2])],
                    baseline: "A",
                    bucketing: .hash
                )
            ]
        )
        let world = try World([hashed])
        try world.manager.stabilize()
        let steps = try explain(world, "Hashed")
        let pick = HashBucketing.variant(of: hashed.experiments[0], subject: "device-1")!.name
        #expect(steps.contains("hash: the hash of device-1 picks \(pick) (weights A 1, B 1)"))
        #expect(steps.contains("stabilized: since 12:00:00: nothing new is drawn and no new experiment is exposed"))
    }
}
