import Foundation
import Synchronization

/// The console's loop: input and background results go in as actions,
/// the reducer updates the state, the renderer draws it.
///
/// Reading the environment and performing effects (forcing, updating) run on
/// the ``ConsoleScheduler`` and post their results back, waking the terminal,
/// so the key loop never waits for them. A poller re-reads the environment
/// whenever it changed (another process wrote the state file, an event
/// arrived, a fetch finished, a catalog file was edited), which is what makes
/// the screen live. ``run()`` is ``start()`` then ``step(_:)`` for each input
/// until the user quits; tests call those two themselves with an
/// ``EmbeddedConsoleScheduler`` and step time by hand.
package final class ConsoleRunner {
    private let terminal: any Terminal
    private let environment: any ConsoleEnvironment
    private let scheduler: any ConsoleScheduler
    private let pollInterval: Duration
    private let inbox = Inbox()
    private let loader: Loader
    private var poller: ScheduledRepetition?
    /// What is on screen now.
    package private(set) var state: ConsoleState

    package init(
        terminal: any Terminal,
        environment: any ConsoleEnvironment,
        scheduler: any ConsoleScheduler = LiveConsoleScheduler(),
        pollInterval: Duration = .milliseconds(250),
        timeZone: ClockZone = .local
    ) {
        self.terminal = terminal
        self.environment = environment
        self.scheduler = scheduler
        self.pollInterval = pollInterval
        loader = Loader(environment: environment, inbox: inbox)
        state = ConsoleState(size: terminal.size, timeZone: timeZone)
    }

    /// Runs until the user quits (or a signal asks to end); returns the last state.
    @discardableResult
    package func run() -> ConsoleState {
        start()
        defer { stop() }
        while !state.shouldQuit { step(terminal.nextInput(timeout: .milliseconds(500))) }
        return state
    }

    /// Loads the first data, draws it and starts polling for changes.
    package func start() {
        apply(loader.load())
        terminal.draw(ConsoleRenderer.render(state))
        poller = startPoller()
    }

    /// Stops polling.
    package func stop() {
        poller?.cancel()
        poller = nil
    }

    /// Takes what background work posted, then `input`, and redraws if anything changed.
    package func step(_ input: TerminalInput?) {
        var changed = false
        for action in inbox.drain() {
            apply(action)
            changed = true
        }
        if let input {
            apply(.input(input))
            changed = true
        }
        if changed && !state.shouldQuit { terminal.draw(ConsoleRenderer.render(state)) }
    }

    private func apply(_ action: ConsoleAction) {
        for effect in ConsoleReducer.reduce(&state, action) { start(effect) }
    }

    private func start(_ effect: ConsoleEffect) {
        let (environment, inbox, loader, waker) = (self.environment, self.inbox, self.loader, terminal.waker)
        if case .explain(let source, let experiment, let generation) = effect {
            // Read, not performed: nothing changes, so nothing is reloaded.
            scheduler.execute {
                let steps = (try? environment.decisionSteps(source: source, experiment: experiment)) ?? []
                inbox.post(.explained(source: source, experiment: experiment, steps: steps, generation: generation))
                waker.wake()
            }
            return
        }
        scheduler.execute {
            do {
                let message = try await environment.perform(effect)
                inbox.post(.effectFinished(message, isError: false))
            } catch {
                inbox.post(.effectFinished(String(describing: error), isError: true))
            }
            loader.loadAndPost()
            waker.wake()
        }
    }

    private func startPoller() -> ScheduledRepetition {
        let (environment, inbox, loader, waker) = (self.environment, self.inbox, self.loader, terminal.waker)
        return scheduler.repeatEvery(pollInterval) {
            // An edited catalog is applied, or its problem shown, within a poll.
            let edits = await environment.reloadEditedCatalogs()
            for problem in edits.problems { inbox.post(.catalogProblem(problem)) }
            if edits.reloaded && edits.problems.isEmpty { inbox.post(.catalogsRepaired) }
            if !edits.problems.isEmpty { waker.wake() }
            let changed: Bool
            do {
                changed = try edits.reloaded || environment.hasChanged()
            } catch {
                inbox.post(.loadFailed(String(describing: error)))
                waker.wake()
                return
            }
            if changed {
                loader.loadAndPost()
                waker.wake()
            }
        }
    }
}

/// Reads the environment and posts the result; reads are serialized so an
/// older read is never posted after a newer one.
final class Loader: Sendable {
    let environment: any ConsoleEnvironment
    let inbox: Inbox
    private let lock = Mutex(())

    init(environment: any ConsoleEnvironment, inbox: Inbox) {
        self.environment = environment
        self.inbox = inbox
    }

    func load() -> ConsoleAction {
        do {
            return .dataLoaded(try environment.load())
        } catch {
            return .loadFailed(String(describing: error))
        }
    }

    func loadAndPost() {
        lock.withLock { _ in inbox.post(load()) }
    }
}

/// Actions posted by background work, collected by the key loop.
final class Inbox: Sendable {
    private let actions = Mutex<[ConsoleAction]>([])

    func post(_ action: ConsoleAction) { actions.withLock { $0.append(action) } }

    func drain() -> [ConsoleAction] {
        actions.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
    }
}
