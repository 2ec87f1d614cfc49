import Foundation
internal import GRDB
import Laboratory

/// A row of `active_assignments`: one assignment last seen active.
///
/// The value is kept as its tagged text (``AssignmentValue/taggedText``),
/// bound as bytes: SQLite's text binding would end at a NUL, and comparing
/// what is active must see exactly what was stored.
struct ActiveAssignmentRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "active_assignments"
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("source"), Column("experiment"), Column("variant"), Column("key"),
            // The value's bytes: GRDB reads text up to its first NUL.
            SQL("CAST(value AS BLOB)"),
        ]
    }

    /// The assignment, or `nil` for a row whose value no release wrote.
    var assignment: Assignment?

    init(_ assignment: Assignment) {
        self.assignment = assignment
    }

    init(row: Row) throws {
        let source: String = try row.decode(atIndex: 0)
        let experiment: String = try row.decode(atIndex: 1)
        let variant: String = try row.decode(atIndex: 2)
        let key: String = try row.decode(atIndex: 3)
        let bytes = try row.decode(Data.self, atIndex: 4)
        assignment = AssignmentValue(taggedText: String(decoding: bytes, as: UTF8.self)).map {
            Assignment(key: key, value: $0, experiment: experiment, variant: variant, source: source)
        }
    }

    func encode(to container: inout PersistenceContainer) {
        guard let assignment else { return }
        container["source"] = assignment.source
        container["experiment"] = assignment.experiment
        container["variant"] = assignment.variant
        container["key"] = assignment.key
        container["value"] = Data(assignment.value.taggedText.utf8)
    }
}
