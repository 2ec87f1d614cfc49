internal import GRDB

/// The one row of `device`: this device's id and active experiments token.
struct DeviceRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "device"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("token")] }

    var id: String
    /// The token as stored: a damaged value must be reported, not read as 0
    /// (which would move the device into other token ranges).
    var token: DatabaseValue

    init(id: String, token: Double) {
        self.id = id
        self.token = token.databaseValue
    }

    init(row: Row) throws {
        id = try row.decode(atIndex: 0)
        token = row[1]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["token"] = token
    }
}
