import Foundation

/// A scoped lock for the console's few pieces of shared mutable state.
final class ConsoleLock: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
