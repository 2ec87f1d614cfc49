import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func forcedVariants() throws -> [ForcedVariant] {
        try read(Self.forcedVariants)
    }

    private static func forcedVariants(_ db: Database) throws -> [ForcedVariant] {
        try ForcedVariantRecord.order(Column("source"), Column("experiment")).fetchAll(db).map(\.forcedVariant)
    }

    public func setForcedVariant(_ forcedVariant: ForcedVariant) throws {
        try write { db in
            let key = ["source": forcedVariant.source, "experiment": forcedVariant.experiment]
            // The same forced variant again changes nothing, so watchers are not woken.
            if try ForcedVariantRecord.fetchOne(db, key: key)?.forcedVariant == forcedVariant { return }
            try ForcedVariantRecord(forcedVariant).insert(db, onConflict: .replace)
            try Self.bumpRevision(db)
        }
    }

    public func removeForcedVariant(source: String, experiment: String) throws {
        try write { db in
            if try ForcedVariantRecord.deleteOne(db, key: ["source": source, "experiment": experiment]) {
                try Self.bumpRevision(db)
            }
        }
    }

    public func removeForcedVariants(source: String?) throws {
        try write { db in
            let removed =
                if let source {
                    try ForcedVariantRecord.filter(Column("source") == source).deleteAll(db)
                } else {
                    try ForcedVariantRecord.deleteAll(db)
                }
            if removed > 0 { try Self.bumpRevision(db) }
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

    public func attributeOverrides() throws -> [String: String] {
        try read(Self.attributeOverrides)
    }

    private static func attributeOverrides(_ db: Database) throws -> [String: String] {
        Dictionary(
            try AttributeOverrideRecord.fetchAll(db).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    public func setAttributeOverrides(_ attributes: [String: String]) throws {
        try write { db in
            if try Self.attributeOverrides(db) == attributes { return }
            try AttributeOverrideRecord.deleteAll(db)
            for (name, value) in attributes { try AttributeOverrideRecord(name: name, value: value).insert(db) }
            try Self.bumpRevision(db)
        }
    }
}
