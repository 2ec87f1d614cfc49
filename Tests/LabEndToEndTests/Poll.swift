import Foundation

/// Waits for what a test expects to see, never a fixed time.
enum Poll {
    /// Calls `look` every 20 ms until it returns something, or `seconds` pass (then `nil`).
    static func until<T>(seconds: Double, _ look: () throws -> T?) rethrows -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let found = try look() { return found }
            if Date() >= deadline { return nil }
            usleep(20_000)
        }
    }
}
