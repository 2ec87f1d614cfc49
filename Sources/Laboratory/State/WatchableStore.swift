/// A store whose changes can be watched: every narrower store is one.
///
/// Every call that changes what a store holds raises ``revision()``; a call
/// that leaves everything as it was does not, and reads never do, so
/// watchers wake for real changes only.
public protocol WatchableStore: Sendable {
    /// A number that changes whenever the state changes, in any process.
    func revision() throws -> Int64

    /// Announces every change: at once for one made through this store,
    /// soon after one made by another process (the SQLite store: within
    /// 50 ms, while anybody listens); an announcement for nothing is allowed,
    /// a change without one is not, and watchers then compare ``revision()``.
    /// `nil` for a store that cannot tell: watchers read ``revision()`` on a timer.
    var changeSignal: ChangeSignal? { get }
}

extension WatchableStore {
    /// A store that cannot tell when it changes.
    public var changeSignal: ChangeSignal? { nil }
}
