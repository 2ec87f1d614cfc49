import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func forcedVariants() throws -> [ForcedVariant] {
        try read(Self.forcedVariants)
    }

    private static func forcedVariants(_ db: Database) throws -> [ForcedVariant] {
        try ForcedVariantRecord.order(Column("source"), Column("experiment"), Column("scope")).fetchAll(db)
            .map(\.forcedVariant)
    }

    public func setForcedVariant(_ forcedVariant: ForcedVariant) throws {
        try write { db in
            let key = ForcedVariantRecord.key(
                source: forcedVariant.source,
                experiment: forcedVariant.experiment,
                scope: forcedVariant.scope
            )
            // The same choice again changes nothing, so watchers are not woken.
            if let stored = try ForcedVariantRecord.fetchOne(db, key: key)?.forcedVariant,
                stored.isSameChoice(as: forcedVariant)
            {
                return
            }
            try ForcedVariantRecord(forcedVariant).insert(db, onConflict: .replace)
            try Self.bumpRevision(db)
        }
    }

    public func removeForcedVariant(source: String, experiment: String, scope: Scope) throws {
        try write { db in
            let key = ForcedVariantRecord.key(source: source, experiment: experiment, scope: scope)
            if try ForcedVariantRecord.deleteOne(db, key: key) {
                try Self.bumpRevision(db)
            }
        }
    }

    public func removeForcedVariants(source: String?, scope: Scope?) throws {
        try write { db in
            var rows = ForcedVariantRecord.all()
            if let source { rows = rows.filter(Column("source") == source) }
            if let scope { rows = rows.filter(Column("scope") == scope.storedForm) }
            if try rows.deleteAll(db) > 0 { try Self.bumpRevision(db) }
        }
    }

    public func applyForcedVariants(_ forcedVariants: [ForcedVariant], replacing: Bool) throws {
        try write { db in
            let before = try Self.forcedVariants(db)
            if replacing { try ForcedVariantRecord.deleteAll(db) }
            for forcedVariant in forcedVariants {
                try ForcedVariantRecord(forcedVariant).insert(db, onConflict: .replace)
            }
            if try Self.forcedVariants(db) != before { try Self.bumpRevision(db) }
        }
    }

    // MARK: - Attribute overrides

    public func storedAttributes() throws -> [String: String] {
        try read(Self.storedAttributes)
    }

    private static func storedAttributes(_ db: Database) throws -> [String: String] {
        Dictionary(
            try StoredAttributeRecord.fetchAll(db).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    public func setStoredAttributes(_ attributes: [String: String]) throws {
        try write { db in
            if try Self.storedAttributes(db) == attributes { return }
            try StoredAttributeRecord.deleteAll(db)
            for (name, value) in attributes { try StoredAttributeRecord(name: name, value: value).insert(db) }
            try Self.bumpRevision(db)
        }
    }
}
