import Foundation

/// Waits for what a test expects to see, never a fixed time.
enum Poll {
    /// Calls `look` every `interval` seconds until it returns something, or
    /// `seconds` pass (then `nil`). A look that starts a process (tmux,
    /// `lab`) takes a longer interval: the other suites share the machine.
    static func until<T>(seconds: Double, every interval: Double = 0.02, _ look: () throws -> T?) rethrows -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let found = try look() { return found }
            if Date() >= deadline { return nil }
            usleep(useconds_t(interval * 1_000_000))
        }
    }
}
