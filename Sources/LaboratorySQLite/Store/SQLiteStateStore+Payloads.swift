import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func payload(source: String) throws -> StoredPayload? {
        try read { db in try PayloadRecord.fetchOne(db, key: source)?.payload }
    }

    public func setPayload(_ payload: StoredPayload, source: String) throws {
        try write { db in
            if try PayloadRecord.fetchOne(db, key: source)?.payload == payload { return }
            try PayloadRecord(source: source, payload: payload).insert(db, onConflict: .replace)
            try Self.bumpRevision(db)
        }
    }

    // MARK: - Sticky buckets

    public func stickyBuckets(source: String) throws -> [String: String] {
        try read { db in
            Dictionary(
                try StickyBucketRecord.filter(Column("source") == source).fetchAll(db).map { ($0.key, $0.document) },
                uniquingKeysWith: { first, _ in first }
            )
        }
    }

    public func setStickyBuckets(_ documents: [String: String], source: String) throws {
        try write { db in
            var changed = false
            for (key, document) in documents.sorted(by: { $0.key < $1.key }) {
                let record = StickyBucketRecord(source: source, key: key, document: document)
                if try StickyBucketRecord.fetchOne(db, key: ["source": source, "key": key])?.document == document {
                    continue
                }
                try record.insert(db, onConflict: .replace)
                changed = true
            }
            if changed { try Self.bumpRevision(db) }
        }
    }
}
