internal import GRDB

/// The one row of `file_state`: what every write changes, so other processes
/// see a change by reading one number, and the digest of the active set.
struct FileStateRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "file_state"
    static var databaseSelection: [any SQLSelectable] { [Column("revision"), Column("activeDigest")] }

    var revision: Int64
    /// An order-independent digest of the active assignments (see ``ActiveSetDigest``).
    var activeDigest: String?

    init(row: Row) throws {
        revision = try row.decode(atIndex: 0)
        activeDigest = try row.decode(atIndex: 1)
    }
}
