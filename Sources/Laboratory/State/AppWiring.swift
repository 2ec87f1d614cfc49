/// Whether an app's wiring includes the debug source, as the app recorded it
/// in the state file it shares with `lab`.
///
/// Forcing a variant changes only apps whose wiring has a debug source (by
/// default, debug builds); the console and `lab force` read these records to
/// warn when forcing would change nothing in an app that opened the file.
public struct AppWiring: Sendable, Hashable, Codable {
    /// The app's name, as it recorded itself (by default its process name).
    public var app: String
    /// Whether the app applies forced variants.
    public var hasDebugSource: Bool
    /// The process that recorded it last; `nil` in records of earlier releases.
    public var process: AppProcess?
    /// Whether the app still ran when the record was read; a record that
    /// names no process is taken to. Decided once, on the machine of the
    /// state file: a console connected to `lab serve` gets it in the
    /// snapshot, as the process ids are the server's, and no screen reads `/proc`.
    public var isRunning: Bool

    /// How `app` is wired, recorded by `process` when known.
    public init(app: String, hasDebugSource: Bool, process: AppProcess? = nil) {
        self.app = app
        self.hasDebugSource = hasDebugSource
        self.process = process
        isRunning = process?.isRunning ?? true
    }

    /// The apps of `wirings` that run and ignore forced variants, named for a
    /// warning, or `nil` when none does: an app that quit changes nothing.
    public static func ignoringForcedVariants(_ wirings: [AppWiring]) -> String? {
        let apps = wirings.filter { !$0.hasDebugSource && $0.isRunning }.map(\.app)
        guard !apps.isEmpty else { return nil }
        let names = apps.count == 1 ? apps[0] : apps.dropLast().joined(separator: ", ") + " and " + apps.last!
        let verb = apps.count == 1 ? "has" : "have"
        return "\(names) \(verb) no debug source and ignore\(apps.count == 1 ? "s" : "") forced variants"
    }
}
