import Foundation

/// Waits for what a test expects to see, never a fixed time: the one way
/// tests here wait for something another thread, task or process does.
package enum Poll {
    /// Calls `look` every `interval` seconds until it returns something, or
    /// `seconds` pass (then `nil`). A look that starts a process (tmux,
    /// `lab`) takes a longer interval: the other suites share the machine.
    package static func until<T>(
        seconds: Double,
        every interval: Double = 0.02,
        _ look: () throws -> T?
    ) rethrows -> T? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let found = try look() { return found }
            if ContinuousClock.now >= deadline { return nil }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// Asks `condition` every `interval` until it holds (`true`), or
    /// `seconds` pass (`false`, after one last ask). The task sleeps between
    /// asks, so what it waits for can run. A condition may also act before
    /// it answers (send one more change, say) when waiting means pushing.
    package static func until(
        seconds: Double,
        every interval: Duration = .milliseconds(20),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: interval)
        }
        return try await condition()
    }
}
