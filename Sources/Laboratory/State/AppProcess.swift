import Foundation

/// The process of an app that opened the state file: its id, and when it
/// started (in clock ticks after boot), which together tell it from a later
/// process that was given the same id.
public struct AppProcess: Sendable, Hashable, Codable {
    /// The process id.
    public var pid: Int32
    /// Field 22 of `/proc/<pid>/stat`.
    public var startTicks: UInt64

    /// The process `pid`, started `startTicks` after boot.
    public init(pid: Int32, startTicks: UInt64) {
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process, or `nil` where `/proc` does not say.
    public static var current: AppProcess? {
        let pid = getpid()
        return startTicks(of: pid).map { AppProcess(pid: pid, startTicks: $0) }
    }

    /// Whether the process still runs: its id names a process that started
    /// when it did. Where `/proc` cannot tell, it is taken to run.
    public var isRunning: Bool {
        guard FileManager.default.fileExists(atPath: "/proc/self/stat") else { return true }
        return Self.startTicks(of: pid) == startTicks
    }

    /// When a process started, read from `/proc/<pid>/stat`; `nil` when there is no such process.
    public static func startTicks(of pid: Int32) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The name (field 2) is in parentheses and may hold spaces or parentheses: count from the last ")".
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Fields 3 onward; the start time is field 22.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
