import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct LocalSourceTests {
    private func catalog(_ experiments: Experiment...) -> Catalog {
        Catalog(source: "Local", experiments: experiments)
    }

    @Test func anExperimentWithoutRangeIsActiveEverywhere() throws {
        let world = try World([catalog(Fixtures.experiment("E"))], token: 0.99)
        #expect(try world.value("color") == "Red-color")
    }

    @Test func anExperimentIsActiveOnlyInsideItsRange() throws {
        let range = HalfOpenRange(lower: 0.2, upper: 0.4)
        let inside = try World([catalog(Fixtures.experiment("E", range: range))], token: 0.3)
        let below = try World([catalog(Fixtures.experiment("E", range: range))], token: 0.1)
        let atEnd = try World([catalog(Fixtures.experiment("E", range: range))], token: 0.4)
        #expect(try inside.value("color") == "Red-color")
        #expect(try below.value("color") == nil)
        #expect(try atEnd.value("color") == nil)
    }

    @Test func drawsByWeightOnceAndKeepsTheDraw() throws {
        let draws = ScriptedRandomSource([0.8])
        let world = try World(
            [catalog(Fixtures.experiment("E", variants: [("A", 2), ("B", 1), ("C", 1)]))],
            draws: draws
        )
        #expect(try world.value("color") == "C-color")
        #expect(try world.value("color") == "C-color")
        #expect(draws.used == 1)
        #expect(try world.store.draws(source: "Local")["E"]?.variant == "C")
    }

    @Test func aDrawSurvivesANewProcessOnTheSameStore() throws {
        let store = InMemoryStateStore()
        let experiment = Fixtures.experiment("E", variants: [("A", 1), ("B", 1)])
        let first = try World([catalog(experiment)], draws: ScriptedRandomSource([0.7]), store: store)
        #expect(try first.value("color") == "B-color")
        let second = try World([catalog(experiment)], draws: ScriptedRandomSource([]), store: store)
        #expect(try second.value("color") == "B-color")
    }

    @Test func aRemovedVariantMakesTheDeviceDrawAgain() throws {
        let store = InMemoryStateStore()
        let before = Fixtures.experiment("E", variants: [("A", 1), ("B", 1)])
        #expect(
            try World([catalog(before)], draws: ScriptedRandomSource([0.9]), store: store).value("color") == "B-color"
        )
        let after = Fixtures.experiment("E", variants: [("A", 1), ("C", 1)])
        let world = try World([catalog(after)], draws: ScriptedRandomSource([0.9]), store: store)
        #expect(try world.value("color") == "C-color")
    }

    @Test func aRemovedExperimentForgetsItsChoice() throws {
        let store = InMemoryStateStore()
        let experiment = Fixtures.experiment("E", variants: [("A", 1), ("B", 1)])
        _ = try World([catalog(experiment)], draws: ScriptedRandomSource([0.9]), store: store).value("color")
        _ = try World(
            [catalog(Fixtures.experiment("Other", keys: ["size"]))],
            draws: ScriptedRandomSource([0.1]),
            store: store
        )
        .value("size")
        #expect(try store.draws(source: "Local")["E"] == nil)
        // Back again, it draws afresh.
        let world = try World([catalog(experiment)], draws: ScriptedRandomSource([0.1]), store: store)
        #expect(try world.value("color") == "A-color")
    }

    @Test func aChangedRangeDoesNotAffectDevicesWhereTheExperimentIsActive() throws {
        let store = InMemoryStateStore()
        let wide = Fixtures.experiment("E", range: HalfOpenRange(lower: 0, upper: 0.5))
        _ = try World([catalog(wide)], token: 0.3, draws: ScriptedRandomSource([0.9]), store: store).value("color")
        let narrow = Fixtures.experiment("E", range: HalfOpenRange(lower: 0, upper: 0.1))
        #expect(
            try World([catalog(narrow)], token: 0.3, draws: ScriptedRandomSource([]), store: store).value("color")
                == "Blue-color"
        )
        // A device outside both ranges never drew, and stays inactive.
        #expect(try World([catalog(narrow)], token: 0.3).value("color") == nil)
    }

    @Test func changedAssignmentValuesAreSeenAtOnce() throws {
        let store = InMemoryStateStore()
        var experiment = Fixtures.experiment("E")
        _ = try World([catalog(experiment)], draws: ScriptedRandomSource([0.1]), store: store).value("color")
        experiment.variants[0].assignments["color"] = "crimson"
        #expect(
            try World([catalog(experiment)], draws: ScriptedRandomSource([]), store: store).value("color") == "crimson"
        )
    }

    @Test func stabilizationKeepsDrawsAndExposesNoNewExperiment() throws {
        let store = InMemoryStateStore()
        let old = Fixtures.experiment("Old", variants: [("A", 1), ("B", 1)])
        let world = try World([catalog(old)], draws: ScriptedRandomSource([0.9]), store: store)
        try world.manager.stabilize()
        #expect(world.manager.value(for: "color") == "B-color")
        let added = Fixtures.experiment("New", keys: ["size"])
        let later = try World([catalog(old, added)], draws: ScriptedRandomSource([]), store: store)
        #expect(try later.value("color") == "B-color")
        #expect(try later.value("size") == nil)
        #expect(try later.locals[0].stabilization() != nil)
    }

    @Test func updateReloadsTheCatalogAndKeepsTheLastGoodOneOnFailure() async throws {
        let fetcher = InMemoryFetcher()
        let world = try World(
            [catalog(Fixtures.experiment("E"))],
            draws: ScriptedRandomSource([0.1, 0.1]),
            fetchers: [fetcher]
        )
        fetcher.serve(
            Data(
                """
                {"source": "Local", "experiments": [{"name": "F", "keys": ["size"], "baseline": "S",
                  "variants": [{"name": "S", "assignments": {"size": 9}}]}]}
                """.utf8
            )
        )
        let statuses = await world.manager.update()
        #expect(statuses["Local"].map { if case .ok = $0 { true } else { false } } == true)
        #expect(world.manager.value(for: "size") == 9)
        #expect(world.manager.value(for: "color") == nil)

        fetcher.serve(Data("{ broken".utf8))
        let failed = await world.manager.update()
        guard case .error(let reason, _) = failed["Local"] else {
            Issue.record("expected an error status, got \(String(describing: failed["Local"]))")
            return
        }
        #expect(reason.contains("malformed JSON"))
        #expect(world.manager.value(for: "size") == 9)
    }
}
