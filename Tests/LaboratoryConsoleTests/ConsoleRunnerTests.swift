import Foundation
import Laboratory
import Testing
@testable import LaboratoryConsole

/// The whole loop on an in-memory terminal: keys in, effects performed in the
/// background, screens out.
@Suite struct ConsoleRunnerTests {
    /// Polls `condition` until it holds or ten seconds pass, without holding
    /// a thread the runner's background tasks need. Generous, because other
    /// suites running at once can keep the task pool busy for a while; it
    /// returns as soon as the condition holds.
    private func eventually(_ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try condition()
    }

    /// Runs the loop on a thread of its own, as `lab console` runs it on the
    /// main thread: it blocks while waiting for keys.
    private func start(_ runner: ConsoleRunner) -> Task<ConsoleState, Never> {
        let box = RunnerBox(runner)
        return Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: box.runner.run()) }
            }
        }
    }

    @Test func keysForceAVariantAndTheScreenFollowsChangesFromElsewhere() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let runner = ConsoleRunner(
            terminal: terminal, environment: world.environment, pollInterval: .milliseconds(20),
            timeZone: TimeZone(identifier: "UTC")!)
        let finished = start(runner)

        terminal.type(.enter, .enter, .down, .enter)
        #expect(try await eventually { try world.store.debugRequests().first?.variant == "ButtonColorBlue" })
        #expect(await eventually { terminal.screen.lines.contains { $0.contains("Forced ButtonColor to ButtonColorBlue.") } })

        // Another process forces something: the screen changes with no key pressed.
        try world.debug.activate(variant: "NewProfileV2", of: "ProfileRedesign")
        #expect(await eventually { terminal.screen.lines.contains { $0.hasPrefix(" ProfileRedesign") && $0.contains("NewProfileV2") } })

        terminal.type(.character("q"))
        let state = await finished.value
        #expect(state.shouldQuit)
    }

    @Test func aSignalEndsTheLoop() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let finished = start(ConsoleRunner(terminal: terminal, environment: world.environment))
        terminal.send(.terminate)
        #expect(await finished.value.shouldQuit)
        #expect(terminal.frames >= 1)
    }
}

/// Hands a runner to the thread that runs it.
private final class RunnerBox: @unchecked Sendable {
    let runner: ConsoleRunner
    init(_ runner: ConsoleRunner) { self.runner = runner }
}
