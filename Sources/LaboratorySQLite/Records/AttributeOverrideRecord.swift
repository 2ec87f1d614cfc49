internal import GRDB

/// A row of `attribute_overrides`: an attribute (such as `userId`) stored by
/// an overrides import, used where the command line gives none.
struct AttributeOverrideRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "attribute_overrides"
    static var databaseSelection: [any SQLSelectable] { [Column("name"), Column("value")] }

    var name: String
    var value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    init(row: Row) throws {
        name = try row.decode(atIndex: 0)
        value = try row.decode(atIndex: 1)
    }

    func encode(to container: inout PersistenceContainer) {
        container["name"] = name
        container["value"] = value
    }
}
