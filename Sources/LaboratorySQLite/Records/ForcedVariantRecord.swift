import Foundation
internal import GRDB
import Laboratory

/// A row of `forced_variants`: what a person forced for one experiment and
/// one scope (`variant` NULL forces it inactive), who and when.
struct ForcedVariantRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "forced_variants"
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("source"), Column("experiment"), Column("scope"), Column("variant"), Column("tester"),
            Column("forcedAt"),
        ]
    }

    var forcedVariant: ForcedVariant

    init(_ forcedVariant: ForcedVariant) {
        self.forcedVariant = forcedVariant
    }

    init(row: Row) throws {
        let scopeText: String = try row.decode(atIndex: 2)
        guard let scope = Scope(storedForm: scopeText) else {
            throw DamagedValue(
                description: "column scope of table forced_variants holds \"\(scopeText)\", not name=value pairs"
            )
        }
        let forcedAt: Double? = try row.decode(atIndex: 5)
        forcedVariant = ForcedVariant(
            source: try row.decode(atIndex: 0),
            experiment: try row.decode(atIndex: 1),
            variant: try row.decode(atIndex: 3),
            scope: scope,
            tester: try row.decode(atIndex: 4),
            forcedAt: forcedAt.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        )
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = forcedVariant.source
        container["experiment"] = forcedVariant.experiment
        container["scope"] = forcedVariant.scope.storedForm
        container["variant"] = forcedVariant.variant
        container["tester"] = forcedVariant.tester
        container["forcedAt"] = forcedVariant.forcedAt?.timeIntervalSince1970
    }

    /// The primary key of the row that holds `forcedVariant`'s choice.
    static func key(source: String, experiment: String, scope: Scope) -> [String: any DatabaseValueConvertible] {
        ["source": source, "experiment": experiment, "scope": scope.storedForm]
    }
}
