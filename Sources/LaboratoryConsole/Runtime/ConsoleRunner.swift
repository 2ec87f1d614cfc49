import Foundation
import Synchronization

/// The console's loop: input and background results go in as actions,
/// the reducer updates the state, the renderer draws it.
///
/// Reading the environment and performing effects (forcing, updating) run in
/// detached tasks and post their results back, waking the terminal, so the
/// key loop never waits for them. A poller re-reads the environment whenever
/// it changed (another process wrote the state file, an event arrived, a
/// fetch finished, a catalog file was edited), which is what makes the
/// screen live.
public final class ConsoleRunner {
    private let terminal: any Terminal
    private let environment: any ConsoleEnvironment
    private let pollInterval: Duration
    private let timeZone: TimeZone
    private let inbox = Inbox()
    private let loader: Loader
    private let executor = QueueTaskExecutor(label: "laboratory.console.background")

    public init(
        terminal: any Terminal,
        environment: any ConsoleEnvironment,
        pollInterval: Duration = .milliseconds(250),
        timeZone: TimeZone = .current
    ) {
        self.terminal = terminal
        self.environment = environment
        self.pollInterval = pollInterval
        self.timeZone = timeZone
        loader = Loader(environment: environment, inbox: inbox)
    }

    /// Runs until the user quits (or a signal asks to end); returns the last state.
    @discardableResult
    public func run() -> ConsoleState {
        var state = ConsoleState(size: terminal.size, timeZone: timeZone)
        apply(loader.load(), to: &state)
        terminal.draw(ConsoleRenderer.render(state))

        let poller = startPoller()
        defer { poller.cancel() }
        while !state.shouldQuit {
            let input = terminal.nextInput(timeout: .milliseconds(500))
            var changed = false
            for action in inbox.drain() {
                apply(action, to: &state)
                changed = true
            }
            if let input {
                apply(.input(input), to: &state)
                changed = true
            }
            if changed && !state.shouldQuit { terminal.draw(ConsoleRenderer.render(state)) }
        }
        return state
    }

    private func apply(_ action: ConsoleAction, to state: inout ConsoleState) {
        for effect in ConsoleReducer.reduce(&state, action) { start(effect) }
    }

    private func start(_ effect: ConsoleEffect) {
        let (environment, inbox, loader, waker) = (self.environment, self.inbox, self.loader, terminal.waker)
        Task.detached(executorPreference: executor) {
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

    private func startPoller() -> Task<Void, Never> {
        let (environment, inbox, loader, waker) = (self.environment, self.inbox, self.loader, terminal.waker)
        let interval = pollInterval
        return Task.detached(executorPreference: executor) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                // An edited catalog is applied, or its problem shown, within a poll.
                let edits = await environment.reloadEditedCatalogs()
                for problem in edits.problems { inbox.post(.loadFailed(problem)) }
                if !edits.problems.isEmpty { waker.wake() }
                let changed: Bool
                do {
                    changed = try edits.reloaded || environment.hasChanged()
                } catch {
                    inbox.post(.loadFailed(String(describing: error)))
                    waker.wake()
                    continue
                }
                if changed {
                    loader.loadAndPost()
                    waker.wake()
                }
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
