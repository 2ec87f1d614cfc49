/// Where the console's background work runs, and how its poller keeps time.
///
/// The live scheduler runs work on a queue of its own and polls on the
/// system clock; ``EmbeddedConsoleScheduler`` runs nothing until a test says
/// so and moves its clock only when advanced, as swift-nio's embedded event
/// loop does, so runner tests neither sleep nor race.
package protocol ConsoleScheduler: Sendable {
    /// Runs `work` in the background.
    func execute(_ work: @escaping @Sendable () async -> Void)

    /// Calls `tick` every `interval` until the returned handle is cancelled.
    func repeatEvery(_ interval: Duration, _ tick: @escaping @Sendable () async -> Void) -> ScheduledRepetition
}

/// A repetition started by ``ConsoleScheduler/repeatEvery(_:_:)``.
package struct ScheduledRepetition: Sendable {
    private let stop: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) {
        stop = cancel
    }

    package func cancel() { stop() }
}
