internal import GRDB

/// A row of `app_wirings`: whether an app that opened the file applies forced variants.
struct AppWiringRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "app_wirings"

    var app: String
    var hasDebugSource: Bool
}
