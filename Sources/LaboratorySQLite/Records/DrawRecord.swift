import Foundation
internal import GRDB

/// A row of `draws`: the variant a local source drew for an experiment.
struct DrawRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "draws"
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("source"), Column("experiment"), Column("variant"), Column("drawnAt"),
        ]
    }

    var source: String
    var experiment: String
    var variant: String
    /// Unix time: read back as a number for thousands of rows at once.
    var drawnAt: Double

    init(source: String, experiment: String, variant: String, drawnAt: Date) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.drawnAt = drawnAt.timeIntervalSince1970
    }

    init(row: Row) throws {
        source = try row.decode(atIndex: 0)
        experiment = try row.decode(atIndex: 1)
        variant = try row.decode(atIndex: 2)
        drawnAt = try row.decode(atIndex: 3)
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["experiment"] = experiment
        container["variant"] = variant
        container["drawnAt"] = drawnAt
    }
}
