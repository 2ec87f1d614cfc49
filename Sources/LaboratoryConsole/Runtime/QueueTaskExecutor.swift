import Dispatch

/// Runs the console's background tasks on a dispatch queue of their own rather
/// than on Swift's shared task pool.
///
/// The pool has one thread per core; if something else in the process blocks
/// those threads (a host app, or test suites waiting on child processes), work
/// queued there waits too. Fetches, loads and forced variants must not wait on
/// that, so the runner prefers this executor for everything it starts.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
