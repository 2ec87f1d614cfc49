import Foundation
import LaboratoryTesting
import Testing

@testable import GrowthBook
@testable import Laboratory

/// The one steering path: what force, unforce, reset and import do, and
/// what they say, for everyone or for a scope.
@Suite struct SteeringTests {
    let catalog = Catalog(
        source: "Local",
        experiments: [Fixtures.experiment("E", variants: [("A", 1), ("B", 1)])]
    )

    private func steering(_ world: World) -> Steering {
        Steering(debug: world.debug, manager: world.manager, store: world.store, clock: world.clock)
    }

    @Test func aScopedForceReachesOnlyTheDevicesItsScopeMatches() throws {
        let world = try World([catalog])
        let steering = steering(world)
        let phone = Scope(attributes: ["id": "qa-phone-7"])
        let outcome = try steering.force("B", of: "E", scope: phone, tester: "ana")
        #expect(outcome.message == "Forced E to B for id=qa-phone-7.")
        #expect(outcome.forcedVariants.first?.tester == "ana")
        #expect(outcome.forcedVariants.first?.forcedAt == world.clock.now())
        // This device is not the phone: it keeps its draw.
        #expect(try world.value("color") == "A-color")
        // Once it is, the scoped forced variant decides, and says so.
        world.debug.useAttributes(["id": "qa-phone-7"])
        #expect(try world.value("color") == "B-color")
        let entry = try #require(try world.debug.entries().first)
        #expect(entry.forcedVariant?.scope == phone && entry.isForced)
    }

    /// Events say who had forced their variant, so a team can tell QA's doing apart, and whose.
    @Test func theEventsOfAForceNameItsTester() throws {
        let world = try World([catalog])
        let steering = steering(world)
        _ = try steering.force("B", of: "E", tester: "ana")
        let activated = world.events.events.filter { $0.reason == .activated && $0.variant == "B" }
        #expect(activated.map(\.tester) == ["ana"] && activated.allSatisfy(\.forced))
        let assignment = try #require(world.manager.snapshot.assignment(for: "color"))
        try world.manager.report(assignment)
        #expect(world.events.events.last?.tester == "ana")
        // Unforced, the draw comes back: not a forced variant's, nobody's.
        _ = try steering.unforce("E")
        let back = world.events.events.filter { $0.reason == .activated }.last
        #expect(back?.variant == "A" && back?.forced == false && back?.tester == nil)
    }

    @Test func theWinnerAmongMatchingForcedVariantsFollowsThePrecedence() throws {
        let world = try World([catalog])
        world.debug.useAttributes(["id": "qa-phone-7", "os": "ios"])
        let steering = steering(world)
        _ = try steering.force("B", of: "E", tester: "ana")
        world.clock.advance(by: 1)
        _ = try steering.force("A", of: "E", scope: Scope(attributes: ["os": "ios"]), tester: "bo")
        #expect(try world.value("color") == "A-color")
        world.clock.advance(by: 1)
        // Newer, same number of attributes: wins.
        _ = try steering.force("B", of: "E", scope: Scope(attributes: ["id": "qa-phone-7"]), tester: "cy")
        #expect(try world.value("color") == "B-color")
        // More attributes win over newer ones; Inactive is a choice like any other.
        world.clock.advance(by: -10)
        let both = Scope(attributes: ["id": "qa-phone-7", "os": "ios"])
        _ = try steering.force("Inactive", of: "E", scope: both, tester: "dee")
        #expect(try world.value("color") == nil)
        let steps = Explanation.forcingSteps(try #require(try world.debug.entries().first))
        #expect(steps.first?.detail == "forced inactive through the debug source, for id=qa-phone-7,os=ios, set by dee")
        let details = steps.map(\.detail)
        #expect(
            details.contains(
                "also matches: B for id=qa-phone-7, set by cy; it loses because more attributes (2) beat fewer (1)"
            )
        )
        #expect(
            details.contains(
                "also matches: B for everyone, set by ana; it loses because a scoped forced variant beats an unscoped one"
            )
        )
    }

    @Test func unforcingAndResettingTouchOnlyTheirScope() throws {
        let world = try World([catalog])
        let steering = steering(world)
        let phone = Scope(attributes: ["id": "qa-phone-7"])
        _ = try steering.force("B", of: "E", tester: "ana")
        _ = try steering.force("A", of: "E", scope: phone, tester: "bo")
        let stranger = Scope(attributes: ["id": "x"])
        let notForced = DebugSourceError.noRequest(
            experiment: "E",
            source: nil,
            scope: stranger,
            otherScopes: [.everyone, phone]
        )
        #expect(throws: notForced) { try steering.unforce("E", scope: stranger) }
        #expect(try steering.unforce("e", scope: phone).message == "E is no longer forced for id=qa-phone-7.")
        #expect(try world.store.forcedVariants().map(\.scope) == [.everyone])
        _ = try steering.force("A", of: "E", scope: phone, tester: "bo")
        #expect(try steering.reset(scope: phone).message == "Dropped 1 forced variant for id=qa-phone-7.")
        #expect(try steering.reset(scope: phone).message == "No forced variants for id=qa-phone-7 to drop.")
        #expect(try world.store.forcedVariants().count == 1)
    }

    /// `lab reset --source local` once said "Dropped…" and dropped nothing.
    @Test func resetResolvesTheSourceAsForceDoesOrRefuses() throws {
        let world = try World([catalog])
        let steering = steering(world)
        _ = try steering.force("B", of: "E", tester: "ana")
        #expect(throws: DebugSourceError.unknownSource("locl", known: ["Local"], suggestions: ["Local"])) {
            try steering.reset(source: "locl")
        }
        #expect(try world.store.forcedVariants().count == 1)
        #expect(try steering.reset(source: "local").message == "Dropped 1 forced variant of Local.")
        #expect(try world.store.forcedVariants().isEmpty)
        #expect(try steering.reset().message == "No forced variants to drop.")
    }

    @Test func anImportRecordsWhoAndWhenWhereTheFileDoesNotSay() throws {
        let world = try World([catalog])
        let steering = steering(world)
        let earlier = Date(timeIntervalSince1970: 1_700_000_000)
        let file = OverridesFile(forcedVariants: [
            ForcedVariant(source: "Local", experiment: "E", variant: "B"),
            ForcedVariant(
                source: "Local",
                experiment: "E",
                variant: "A",
                scope: Scope(attributes: ["id": "p"]),
                tester: "bo",
                forcedAt: earlier
            ),
        ])
        let outcome = try steering.importOverrides(file, replacing: false, tester: "ana", from: "team.json")
        #expect(outcome.message == "Applied 2 forced variants from team.json.")
        let stored = try world.store.forcedVariants()
        #expect(stored.map(\.tester) == ["ana", "bo"])
        #expect(stored.map(\.forcedAt) == [world.clock.now(), earlier])
        // What goes out comes back the same, scope, tester and time included.
        let exported = try steering.exportOverrides()
        let reread = try OverridesFile(decoding: exported.encoded(), file: "out.json")
        #expect(reread.forcedVariants.map(\.scope) == stored.map(\.scope))
        #expect(reread.forcedVariants.map(\.tester) == stored.map(\.tester))
        #expect(
            zip(reread.forcedVariants, stored).allSatisfy {
                abs(($0.forcedAt ?? .distantPast).timeIntervalSince($1.forcedAt ?? .distantFuture)) < 0.001
            }
        )
    }

    @Test func anOverridesFileWithABadScopeSaysWhere() {
        let text = """
            {"version": 2, "forcedVariants": [
              {"source": "Local", "experiment": "E", "variant": "A", "scope": {"id": 7}}]}
            """
        #expect(
            throws: OverridesFile.Invalid(
                file: "f.json",
                position: SourcePosition(line: 2, column: 74),
                message: "scope attribute \"id\" of forced variant 1 must be a string, found a number"
            )
        ) { try OverridesFile(decoding: Data(text.utf8), file: "f.json") }
    }
}
