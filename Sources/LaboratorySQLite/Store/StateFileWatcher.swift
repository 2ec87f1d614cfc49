import Dispatch
import Foundation
import Laboratory
import Synchronization

/// The one place a process watches its state file for other processes'
/// writes: `PRAGMA data_version`, which moves when another connection
/// commits, read 20 times a second on the store's own connection while
/// anybody listens. Writes made through the store are announced by it
/// directly, as they commit. The manager, the console and the server all
/// listen to the store's ``ChangeSignal`` instead of reading the file on
/// timers of their own.
///
/// The watch runs on a dispatch timer of its own, not on Swift's
/// cooperative threads: tasks that block those (a test suite full of them,
/// an app's) must not keep another process's change from being seen.
enum StateFileWatcher {
    /// A signal that watches `dataVersion` while it has listeners.
    static func signal(
        reading dataVersion: @escaping @Sendable () -> Int64?,
        every interval: DispatchTimeInterval = .milliseconds(50)
    ) -> ChangeSignal {
        let queue = DispatchQueue(label: "laboratory.state-file-watch")
        let running = Mutex<DispatchSourceTimer?>(nil)
        return ChangeSignal { signal, listening in
            running.withLock { timer in
                timer?.cancel()
                timer = nil
                guard listening else { return }
                // Read before the first listener gets its stream: a commit right after counts as a change.
                let seen = Mutex(dataVersion())
                let source = DispatchSource.makeTimerSource(queue: queue)
                source.schedule(deadline: .now() + interval, repeating: interval)
                // Weak: a store nobody holds any more stops being watched.
                source.setEventHandler { [weak signal] in
                    let now = dataVersion()
                    let moved = seen.withLock { seen in
                        defer { seen = now }
                        return seen != now
                    }
                    if moved { signal?.announce() }
                }
                source.resume()
                timer = source
            }
        }
    }
}
