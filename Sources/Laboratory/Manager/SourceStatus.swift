import Foundation

/// How the last fetch of a source went, for the console's Settings screen.
public enum SourceStatus: Sendable, Hashable, Codable {
    /// Not fetched since start-up; serving what it loaded then.
    case idle
    /// A fetch is under way.
    case updating
    /// The last fetch succeeded at this time.
    case ok(Date)
    /// The last fetch failed; the source keeps its last good data.
    case error(String, at: Date)

    /// `idle`, `updating…`, `ok at 14:03:12`, `error: reason`.
    public var summary: String {
        switch self {
        case .idle: return "idle"
        case .updating: return "updating…"
        case .ok(let date): return "ok at \(Self.timeFormatter.string(from: date))"
        case .error(let reason, _): return "error: \(reason)"
        }
    }

    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
}
