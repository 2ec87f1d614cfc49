import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
        let stored = try read { db in try FileStateRecord.fetchOne(db)?.activeDigest }
        // The set this store wrote last is still the file's: the change from
        // it (compared where the assignments stand) gives the new digest,
        // and nothing is hashed but what changed.
        if let remembered = lastActiveSet.withLock({ $0 }), remembered.digest == stored {
            let change = ActiveSetChange.between(remembered.assignments, assignments)
            if change.isEmpty { return change }
            if let digest = ActiveSetDigest.updated(remembered.digest, by: change) {
                return try swap(assignments, digest: digest, expecting: remembered.digest, change: change)
            }
        }
        let digest = ActiveSetDigest.of(assignments)
        // Most refreshes change nothing: the digest, read without the write lock, says so.
        if stored == digest { return ActiveSetChange(entered: [], left: []) }
        return try swap(assignments, digest: digest, expecting: nil, change: nil)
    }

    /// Writes the difference between the active set in the file and
    /// `assignments`, whose digest is `digest`. `change` is that difference
    /// when the file's digest is still `expected`; otherwise the file's set
    /// is read and compared under the lock.
    private func swap(
        _ assignments: [Assignment],
        digest: String,
        expecting expected: String?,
        change known: ActiveSetChange?
    ) throws -> ActiveSetChange {
        try write { db in
            // Another process may have swapped meanwhile: look again under the lock.
            let storedDigest = try FileStateRecord.fetchOne(db)?.activeDigest
            if storedDigest == digest {
                return ActiveSetChange(entered: [], left: [])
            }
            let change: ActiveSetChange
            if let known, storedDigest == expected {
                change = known
            } else {
                // Not the set this store wrote last (the caller compared with that one): read the file's.
                var old: [Assignment] = []
                old.reserveCapacity(assignments.count)
                let records = try ActiveAssignmentRecord.fetchCursor(db)
                while let record = try records.next() {
                    if let assignment = record.assignment { old.append(assignment) }
                }
                change = ActiveSetChange.between(old, assignments)
            }
            try db.execute(sql: "UPDATE file_state SET activeDigest = ?", arguments: [digest])
            lastActiveSet.withLock { $0 = (digest, assignments) }
            guard !change.isEmpty else { return change }
            // Write only the difference: one forced variant must not rewrite thousands of rows.
            // Statements prepared once: a first start writes thousands.
            let delete = try db.cachedStatement(
                sql: "DELETE FROM active_assignments WHERE source = ? AND experiment = ? AND key = ?"
            )
            for assignment in change.left {
                try delete.execute(arguments: [assignment.source, assignment.experiment, assignment.key])
            }
            let entered = change.entered
            try BulkInsert(
                "active_assignments",
                columns: ["source", "experiment", "variant", "key", "value"],
                replacing: true
            ).insert(db, count: entered.count) { row, values in
                let assignment = entered[row]
                values.text(assignment.source)
                values.text(assignment.experiment)
                values.text(assignment.variant)
                values.text(assignment.key)
                // As bytes: SQLite's text binding would end at a NUL (see ActiveAssignmentRecord).
                values.value(Data(assignment.value.taggedText.utf8).databaseValue)
            }
            try Self.bumpRevision(db)
            return change
        }
    }
}
