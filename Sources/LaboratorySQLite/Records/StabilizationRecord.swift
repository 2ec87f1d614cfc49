import Foundation
internal import GRDB

/// A row of `stabilization`: since when a source is stabilized on this
/// device, and the payload a remote source had then (served from then on).
struct StabilizationRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "stabilization"
    static var databaseSelection: [any SQLSelectable] {
        [Column("source"), Column("time"), Column("payload"), Column.rowID.forKey("id")]
    }

    var source: String
    var time: Date
    var payload: Data?

    init(source: String, time: Date, payload: Data?) {
        self.source = source
        self.time = time
        self.payload = payload
    }

    init(row: Row) throws {
        source = try row.decode(atIndex: 0)
        time = try DamagedValue.time(row, "time", table: "stabilization")
        payload = try row.decode(atIndex: 2)
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["time"] = StoredTime.databaseValue(time)
        container["payload"] = payload
    }
}
