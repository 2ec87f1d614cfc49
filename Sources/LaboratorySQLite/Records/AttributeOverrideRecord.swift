internal import GRDB

/// A row of `attribute_overrides`: an attribute (such as `userId`) stored by
/// an overrides import, used where the command line gives none.
struct AttributeOverrideRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "attribute_overrides"

    var name: String
    var value: String
}
