import Foundation

/// A lock around `NSLock` with a scoped `withLock`, for the few classes that
/// keep mutable state behind `@unchecked Sendable`.
final class Lock: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// A value that is read and written only under its own lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }

    var current: Value { withLock { $0 } }
}
