internal import GRDB

/// A row of `stored_attributes`: an attribute (such as `userId`) stored by
/// an overrides import, used where the command line gives none.
struct StoredAttributeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "stored_attributes"

    var name: String
    var value: String
}
