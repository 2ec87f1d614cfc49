import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// The whole loop on an in-memory terminal: keys in, effects performed in the
/// background, screens out. Background work and time are stepped by hand on
/// an ``EmbeddedConsoleScheduler``: nothing sleeps, nothing races.
@Suite struct ConsoleRunnerTests {
    /// Runs the loop on a thread of its own, started at once, as `lab console`
    /// runs it on the main thread: it blocks while waiting for keys, and must
    /// not wait for a turn on the task pool that other suites may be holding.
    private func start(_ runner: ConsoleRunner) -> RunnerBox {
        let box = RunnerBox(runner)
        Thread.detachNewThread { box.finish(box.runner.run()) }
        return box
    }

    private func screenContains(_ terminal: InMemoryTerminal, _ predicate: (String) -> Bool) -> Bool {
        terminal.screen.lines.contains(where: predicate)
    }

    @Test func keysForceAVariantAndTheScreenFollowsChangesFromElsewhere() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let scheduler = EmbeddedConsoleScheduler()
        let runner = ConsoleRunner(
            terminal: terminal,
            environment: world.environment,
            scheduler: scheduler,
            pollInterval: .milliseconds(250),
            timeZone: .utc
        )
        runner.start()
        defer { runner.stop() }

        for key in [Key.enter, .enter, .down, .enter] { runner.step(.key(key)) }
        // The force waits for its turn in the background: nothing is written yet.
        #expect(try world.store.forcedVariants().isEmpty)
        #expect(scheduler.pendingWork == 1)
        await scheduler.runPendingWork()
        #expect(try world.store.forcedVariants().first?.variant == "ButtonColorBlue")
        runner.step(nil)
        #expect(screenContains(terminal) { $0.contains("Forced ButtonColor to ButtonColorBlue.") })

        // Another process forces something: the next poll, and not before it, shows it.
        try world.debug.force(variant: "NewProfileV2", of: "ProfileRedesign")
        let shown: (String) -> Bool = { $0.hasPrefix(" ProfileRedesign") && $0.contains("NewProfileV2") }
        await scheduler.advance(by: .milliseconds(249))
        runner.step(nil)
        #expect(!screenContains(terminal, shown))
        await scheduler.advance(by: .milliseconds(1))
        runner.step(nil)
        #expect(screenContains(terminal, shown), "\(terminal.screen.lines.joined(separator: "\n"))")
        #expect(scheduler.now == .milliseconds(250))

        runner.step(.key(.character("q")))
        #expect(runner.state.shouldQuit)
    }

    @Test func aPollThatFindsNothingNewDrawsNothing() async throws {
        let world = try ConsoleWorld.demo()
        let terminal = InMemoryTerminal()
        let scheduler = EmbeddedConsoleScheduler()
        let runner = ConsoleRunner(terminal: terminal, environment: world.environment, scheduler: scheduler)
        runner.start()
        defer { runner.stop() }
        let frames = terminal.frames
        await scheduler.advance(by: .seconds(10))
        runner.step(nil)
        #expect(terminal.frames == frames)
        // Stopped: a change is no longer looked for.
        runner.stop()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        await scheduler.advance(by: .seconds(1))
        runner.step(nil)
        #expect(terminal.frames == frames)
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
