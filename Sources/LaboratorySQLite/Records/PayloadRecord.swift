import Foundation
internal import GRDB
import Laboratory

/// A row of `payloads`: a remote source's last good payload and its ETag.
struct PayloadRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "payloads"
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("source"), Column("data"), Column("etag"), Column("fetchedAt"),
        ]
    }

    var source: String
    var payload: StoredPayload

    init(source: String, payload: StoredPayload) {
        self.source = source
        self.payload = payload
    }

    init(row: Row) throws {
        source = try row.decode(atIndex: 0)
        payload = StoredPayload(
            data: try row.decode(atIndex: 1),
            etag: try row.decode(atIndex: 2),
            fetchedAt: Date(timeIntervalSince1970: try row.decode(Double.self, atIndex: 3))
        )
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["data"] = payload.data
        container["etag"] = payload.etag
        container["fetchedAt"] = payload.fetchedAt.timeIntervalSince1970
    }
}
