/// Background work on a dispatch queue of the console's own, and polls on
/// the system clock: what `lab console` runs with.
package struct LiveConsoleScheduler: ConsoleScheduler {
    private let executor = QueueTaskExecutor(label: "laboratory.console.background")

    package init() {}

    package func execute(_ work: @escaping @Sendable () async -> Void) {
        Task.detached(executorPreference: executor) { await work() }
    }

    package func repeatEvery(
        _ interval: Duration,
        _ tick: @escaping @Sendable () async -> Void
    ) -> ScheduledRepetition {
        let task = Task.detached(executorPreference: executor) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await tick()
            }
        }
        return ScheduledRepetition { task.cancel() }
    }
}
