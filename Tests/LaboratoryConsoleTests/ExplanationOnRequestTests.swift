import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// The console on the framework explains one experiment per reload: the
/// one its detail pane shows, asked for when it is shown, never every
/// experiment of every source with each read of the data.
@Suite struct ExplanationOnRequestTests {
    @Test func oneReloadBuildsOneExplanation() throws {
        let world = try ConsoleWorld([], growthBook: AttributesScreenTests.payload)
        // Reading the data explains nothing.
        let data = try world.environment.load()
        #expect(data.decisionSteps.isEmpty)
        #expect(data.stepsOnRequest == ["GrowthBook"])

        world.press(.enter)  // Experiments, the first experiment highlighted
        let first = try #require(world.highlighted)
        #expect(world.explanationsAsked == [first])
        // The source's own steps, as the pane shows them once they are read.
        #expect(world.pane.contains("growthbook: a force rule of feature beta-banner"))

        // A reload asks again for the experiment shown, and for it alone.
        try world.reload()
        #expect(world.explanationsAsked == [first, first])

        // Moving asks for the next one, once; moving back after that asks nothing new.
        world.press(.down)
        let second = try #require(world.highlighted)
        #expect(second != first)
        #expect(world.explanationsAsked == [first, first, second])
        world.press(.up)
        #expect(world.explanationsAsked == [first, first, second])
    }

    @Test func stepsReadForOlderDataAreNotShownWithNewerData() throws {
        let world = try ConsoleWorld([], growthBook: AttributesScreenTests.payload)
        world.press(.enter)
        let shown = try #require(world.state.experimentInPane)
        let old = world.state.dataGeneration
        try world.reload()
        let stale = [Explanation.Step(label: "stale", detail: "from older data")]
        _ = ConsoleReducer.reduce(
            &world.state,
            .explained(source: shown.source, experiment: shown.experiment, steps: stale, generation: old)
        )
        #expect(world.state.data.decisionSteps[shown.source]?[shown.experiment] != stale)
    }
}
