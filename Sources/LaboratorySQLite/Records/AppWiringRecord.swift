internal import GRDB
import Laboratory

/// A row of `app_wirings`: whether an app that opened the file applies forced variants.
struct AppWiringRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "app_wirings"

    var app: String
    var hasDebugSource: Bool
    /// The process that recorded the row; NULL in rows of earlier releases.
    var pid: Int32?
    var startTicks: Int64?

    init(_ wiring: AppWiring) {
        app = wiring.app
        hasDebugSource = wiring.hasDebugSource
        pid = wiring.process?.pid
        startTicks = wiring.process.map { Int64(bitPattern: $0.startTicks) }
    }

    var wiring: AppWiring {
        let process = pid.flatMap { pid in startTicks.map { AppProcess(pid: pid, startTicks: UInt64(bitPattern: $0)) } }
        return AppWiring(app: app, hasDebugSource: hasDebugSource, process: process)
    }
}
