import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func swapActiveAssignments(_ assignments: [Assignment]) throws -> ActiveSetChange {
        let digest = ActiveSetDigest.of(assignments)
        // Most refreshes change nothing: the digest, read without the write lock, says so.
        let stored = try read { db in try FileStateRecord.fetchOne(db)?.activeDigest }
        if stored == digest { return ActiveSetChange(entered: [], left: []) }
        return try write { db in
            // Another process may have swapped meanwhile: look again under the lock.
            let storedDigest = try FileStateRecord.fetchOne(db)?.activeDigest
            if storedDigest == digest {
                return ActiveSetChange(entered: [], left: [])
            }
            // The set this store wrote last, while nobody has swapped since; otherwise read from the file.
            let remembered = lastActiveSet.withLock { $0 }
            var old: [Assignment] = []
            if let remembered, remembered.digest == storedDigest {
                old = remembered.assignments
            } else {
                old.reserveCapacity(assignments.count)
                let records = try ActiveAssignmentRecord.fetchCursor(db)
                while let record = try records.next() {
                    if let assignment = record.assignment { old.append(assignment) }
                }
            }
            let change = ActiveSetChange.between(old, assignments)
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
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO active_assignments (source, experiment, variant, key, value)
                    VALUES (?, ?, ?, ?, ?)
                    """
            )
            for assignment in change.entered {
                try insert.execute(arguments: [
                    assignment.source, assignment.experiment, assignment.variant, assignment.key,
                    // As bytes: SQLite's text binding would end at a NUL (see ActiveAssignmentRecord).
                    Data(assignment.value.taggedText.utf8),
                ])
            }
            try Self.bumpRevision(db)
            return change
        }
    }
}
