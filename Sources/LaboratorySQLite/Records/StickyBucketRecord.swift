internal import GRDB

/// A row of `sticky_buckets`: one GrowthBook sticky-bucket document, keyed
/// as the SDKs key them (`attribute||value`), kept as its JSON text.
struct StickyBucketRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "sticky_buckets"
    static var databaseSelection: [any SQLSelectable] { [Column("source"), Column("key"), Column("document")] }

    var source: String
    var key: String
    var document: String

    init(source: String, key: String, document: String) {
        self.source = source
        self.key = key
        self.document = document
    }

    init(row: Row) throws {
        source = try row.decode(atIndex: 0)
        key = try row.decode(atIndex: 1)
        document = try row.decode(atIndex: 2)
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["key"] = key
        container["document"] = document
    }
}
