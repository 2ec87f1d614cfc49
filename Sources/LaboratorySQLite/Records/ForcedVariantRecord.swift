internal import GRDB
import Laboratory

/// A row of `forced_variants`: what a person forced for one experiment
/// (`variant` NULL forces it inactive).
struct ForcedVariantRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "forced_variants"
    static var databaseSelection: [any SQLSelectable] { [Column("source"), Column("experiment"), Column("variant")] }

    var forcedVariant: ForcedVariant

    init(_ forcedVariant: ForcedVariant) {
        self.forcedVariant = forcedVariant
    }

    init(row: Row) throws {
        forcedVariant = ForcedVariant(
            source: try row.decode(atIndex: 0),
            experiment: try row.decode(atIndex: 1),
            variant: try row.decode(atIndex: 2)
        )
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = forcedVariant.source
        container["experiment"] = forcedVariant.experiment
        container["variant"] = forcedVariant.variant
    }
}
