import Synchronization

/// A ``ConsoleScheduler`` for tests that runs work only when told, on a clock
/// that moves only when advanced.
///
/// ```swift
/// runner.step(.key(.enter))               // the reducer asks to force a variant
/// await scheduler.runPendingWork()        // the force and the reload run now
/// runner.step(nil)                        // their results reach the screen
/// await scheduler.advance(by: .milliseconds(250))   // one poll
/// ```
package final class EmbeddedConsoleScheduler: ConsoleScheduler, Sendable {
    private struct Repetition {
        var id: Int
        var interval: Duration
        var next: Duration
        var tick: @Sendable () async -> Void
    }

    private struct State {
        var now: Duration = .zero
        var work: [@Sendable () async -> Void] = []
        var repetitions: [Repetition] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How far the clock has been advanced.
    package var now: Duration { state.withLock { $0.now } }

    /// How many pieces of work wait to run.
    package var pendingWork: Int { state.withLock { $0.work.count } }

    package func execute(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { $0.work.append(work) }
    }

    package func repeatEvery(
        _ interval: Duration,
        _ tick: @escaping @Sendable () async -> Void
    ) -> ScheduledRepetition {
        let id = state.withLock { state in
            state.nextID += 1
            state.repetitions.append(
                Repetition(id: state.nextID, interval: interval, next: state.now + interval, tick: tick)
            )
            return state.nextID
        }
        return ScheduledRepetition { [weak self] in
            self?.state.withLock { $0.repetitions.removeAll { $0.id == id } }
        }
    }

    /// Runs the waiting work, in the order it was asked for, and the work it asks for in turn.
    package func runPendingWork() async {
        while let work = state.withLock({ state in state.work.isEmpty ? nil : state.work.removeFirst() }) {
            await work()
        }
    }

    /// Moves the clock by `duration`, running each repetition as often as it
    /// comes due on the way, and the work they ask for, in time order.
    package func advance(by duration: Duration) async {
        let end = state.withLock { $0.now + duration }
        while true {
            let due = state.withLock { state -> Repetition? in
                guard
                    let index = state.repetitions.indices.min(by: {
                        state.repetitions[$0].next < state.repetitions[$1].next
                    }),
                    state.repetitions[index].next <= end
                else { return nil }
                let repetition = state.repetitions[index]
                state.now = repetition.next
                state.repetitions[index].next += repetition.interval
                return repetition
            }
            guard let due else { break }
            await due.tick()
            await runPendingWork()
        }
        state.withLock { $0.now = end }
        await runPendingWork()
    }
}
