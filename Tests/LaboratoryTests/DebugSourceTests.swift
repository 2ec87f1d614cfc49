import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

@Suite struct DebugSourceTests {
    let catalog = Catalog(
        source: "Local",
        experiments: [
            Fixtures.experiment("E", variants: [("A", 1), ("B", 1)]),
            Fixtures.experiment("Ranged", keys: ["size"], range: HalfOpenRange(lower: 0, upper: 0.1)),
        ]
    )

    @Test func listsEveryExperimentActiveOrNot() throws {
        let world = try World([catalog], token: 0.5)
        let entries = try world.debug.entries()
        #expect(entries.map(\.experiment.name) == ["E", "Ranged"])
        #expect(entries[0].natural?.variant.name == "A")
        #expect(entries[1].natural == nil)
    }

    @Test func activatesAnyVariantEvenOfAnInactiveExperiment() throws {
        let world = try World([catalog], token: 0.5)
        try world.debug.force(variant: "B", of: "E")
        try world.debug.force(variant: "Blue", of: "Ranged", in: "Local")
        #expect(try world.value("color") == "B-color")
        #expect(try world.value("size") == "Blue-size")
        #expect(world.manager.snapshot.active.allSatisfy { $0.forced })
    }

    @Test func inactiveChoiceDeactivates() throws {
        let world = try World([catalog])
        try world.debug.force(variant: DebugSource.inactiveChoice, of: "E")
        #expect(try world.value("color") == nil)
        #expect(try world.debug.entries()[0].isForced)
    }

    @Test func removingARequestBringsBackTheDraw() throws {
        let world = try World([catalog])
        try world.debug.force(variant: "B", of: "E")
        try world.debug.unforce(experiment: "E")
        #expect(try world.value("color") == "A-color")
        #expect(throws: DebugSourceError.noRequest(experiment: "E", source: nil)) {
            try world.debug.unforce(experiment: "E")
        }
    }

    @Test func resetDropsEveryRequest() throws {
        let world = try World([catalog])
        try world.debug.force(variant: "B", of: "E")
        try world.debug.forceInactive(experiment: "Ranged")
        try world.debug.reset()
        #expect(try world.store.forcedVariants().isEmpty)
        #expect(try world.value("color") == "A-color")
    }

    @Test func requestsPersistAcrossRuns() throws {
        let store = InMemoryStateStore()
        try World([catalog], store: store).debug.force(variant: "B", of: "E")
        #expect(try World([catalog], store: store).value("color") == "B-color")
    }

    @Test func refusesUnknownNames() throws {
        let world = try World([catalog])
        #expect(throws: DebugSourceError.unknownExperiment("Nope", source: nil)) {
            try world.debug.force(variant: "A", of: "Nope")
        }
        #expect(throws: DebugSourceError.unknownVariant("Z", experiment: "E", known: ["A", "B", "Inactive"])) {
            try world.debug.force(variant: "Z", of: "E")
        }
        #expect(throws: DebugSourceError.unknownSource("Remote", known: ["Local"])) {
            try world.debug.force(variant: "A", of: "E", in: "Remote")
        }
    }

    @Test func anAmbiguousNameNeedsASource() throws {
        let other = Catalog(source: "Other", experiments: [Fixtures.experiment("E", keys: ["x"])])
        let world = try World([catalog, other])
        #expect(throws: DebugSourceError.ambiguous(experiment: "E", sources: ["Local", "Other"])) {
            try world.debug.force(variant: "Red", of: "E")
        }
        try world.debug.force(variant: "Red", of: "E", in: "Other")
        #expect(try world.value("x") == "Red-x")
    }

    @Test func staleRequestsAreReportedAndNotApplied() throws {
        let store = InMemoryStateStore()
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "E", variant: "Gone"))
        try store.setForcedVariant(ForcedVariant(source: "Local", experiment: "Removed", variant: "A"))
        try store.setForcedVariant(ForcedVariant(source: "Remote", experiment: "X", variant: nil))
        let world = try World([catalog], store: store)
        #expect(try world.value("color") == "A-color")
        #expect(try world.debug.entries()[0].isStale)
        let stale = try world.debug.staleForcedVariants()
        #expect(
            stale.map(\.reason) == [
                "experiment \"E\" has no variant \"Gone\"",
                "source \"Local\" has no experiment \"Removed\"",
                "source \"Remote\" is not loaded",
            ]
        )
        // A stale request can still be dropped by name.
        try world.debug.unforce(experiment: "Removed")
        #expect(try world.debug.staleForcedVariants().count == 2)
    }
}
