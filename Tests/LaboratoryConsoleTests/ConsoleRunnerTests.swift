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

    /// Runs the loop on a thread of its own, started at once, as `lab console`
    /// runs it on the main thread: it blocks while waiting for keys, and must
    /// not wait for a turn on the task pool that other suites may be holding.
    private func start(_ runner: ConsoleRunner) -> RunnerBox {
        let box = RunnerBox(runner)
        Thread.detachNewThread { box.finish(box.runner.run()) }
        return box
    }

    @Test func keysForceAVariantAndTheScreenFollowsChangesFromElsewhere() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let runner = ConsoleRunner(
            terminal: terminal,
            environment: world.environment,
            pollInterval: .milliseconds(20),
            timeZone: TimeZone(identifier: "UTC")!
        )
        let finished = start(runner)

        terminal.type(.enter, .enter, .down, .enter)
        #expect(try await eventually { try world.store.forcedVariants().first?.variant == "ButtonColorBlue" })
        #expect(
            await eventually {
                terminal.screen.lines.contains { $0.contains("Forced ButtonColor to ButtonColorBlue.") }
            }
        )

        // Another process forces something: the screen changes with no key pressed.
        try world.debug.force(variant: "NewProfileV2", of: "ProfileRedesign")
        #expect(
            await eventually {
                terminal.screen.lines.contains { $0.hasPrefix(" ProfileRedesign") && $0.contains("NewProfileV2") }
            }
        )

        terminal.type(.character("q"))
        let state = await finished.result()
        #expect(state.shouldQuit)
    }

    @Test func aSignalEndsTheLoop() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let finished = start(ConsoleRunner(terminal: terminal, environment: world.environment))
        terminal.send(.terminate)
        #expect(await finished.result().shouldQuit)
        #expect(terminal.frames >= 1)
    }
}

/// Hands a runner to the thread that runs it, and its final state back.
private final class RunnerBox: @unchecked Sendable {
    let runner: ConsoleRunner
    private let lock = NSLock()
    private var state: ConsoleState?
    private var waiter: CheckedContinuation<ConsoleState, Never>?

    init(_ runner: ConsoleRunner) { self.runner = runner }

    func finish(_ final: ConsoleState) {
        lock.lock()
        state = final
        let waiter = self.waiter
        lock.unlock()
        waiter?.resume(returning: final)
    }

    func result() async -> ConsoleState {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let state {
                lock.unlock()
                continuation.resume(returning: state)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
