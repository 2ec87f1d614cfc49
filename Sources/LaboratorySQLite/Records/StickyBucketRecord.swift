internal import GRDB

/// A row of `sticky_buckets`: one GrowthBook sticky-bucket document, keyed
/// as the SDKs key them (`attribute||value`), kept as its JSON text.
struct StickyBucketRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sticky_buckets"

    var source: String
    var key: String
    var document: String
}
