internal import GRDB

/// A row of `app_wirings`: whether an app that opened the file applies forced variants.
struct AppWiringRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "app_wirings"
    static var databaseSelection: [any SQLSelectable] { [Column("app"), Column("hasDebugSource")] }

    var app: String
    var hasDebugSource: Bool

    init(app: String, hasDebugSource: Bool) {
        self.app = app
        self.hasDebugSource = hasDebugSource
    }

    init(row: Row) throws {
        app = try row.decode(atIndex: 0)
        hasDebugSource = try row.decode(atIndex: 1)
    }

    func encode(to container: inout PersistenceContainer) {
        container["app"] = app
        container["hasDebugSource"] = hasDebugSource
    }
}
