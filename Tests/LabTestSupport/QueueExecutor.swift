import Foundation

/// Runs tasks on a dispatch queue rather than Swift's shared pool: suites that
/// block the pool (waiting on child processes) must not stall a server, a
/// stream or a watcher another test relies on.
public final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    /// - Parameter ownThread: run its jobs one at a time on a queue of their
    ///   own, which Dispatch serves with a thread of its own even while the
    ///   shared threads are busy: for a client that must keep up while
    ///   another suite floods a server (the concurrent queue shares its
    ///   threads, as many as there are cores, with every other).
    public init(ownThread: Bool = false) {
        queue =
            ownThread
            ? DispatchQueue(label: "lab.tests.executor.own")
            : DispatchQueue(label: "lab.tests.executor", attributes: .concurrent)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
