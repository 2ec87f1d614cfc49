internal import GRDB

/// The one row of `file_state`: what every write changes, so other processes
/// see a change by reading one number; what every write to the device part
/// changes; and the digest of the active set.
struct FileStateRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "file_state"
    static var databaseSelection: [any SQLSelectable] {
        [Column("revision"), Column("activeDigest"), Column("deviceRevision")]
    }

    var revision: Int64
    /// An order-independent digest of the active assignments (see ``ActiveSetDigest``).
    var activeDigest: String?
    /// Raised with ``revision`` by writes to the device, its draws and stabilizations only.
    var deviceRevision: Int64

    init(row: Row) throws {
        revision = try row.decode(atIndex: 0)
        activeDigest = try row.decode(atIndex: 1)
        deviceRevision = try row.decode(atIndex: 2)
    }
}
