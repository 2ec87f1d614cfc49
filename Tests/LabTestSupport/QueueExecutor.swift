import Foundation

/// Runs tasks on a dispatch queue rather than Swift's shared pool: suites that
/// block the pool (waiting on child processes) must not stall a server, a
/// stream or a watcher another test relies on.
public final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "lab.tests.executor", attributes: .concurrent)

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
