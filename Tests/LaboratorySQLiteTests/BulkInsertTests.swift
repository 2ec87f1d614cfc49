import Foundation
import GRDB
import Testing

@testable import LaboratorySQLite

/// Rows written many a statement read back as written: every count around
/// a statement's rows, empty text (not NULL), NULL, numbers, bytes, and a
/// replaced row.
struct BulkInsertTests {
    @Test(arguments: [0, 1, 63, 64, 65, 130])
    func rowsReadBackAsWritten(count: Int) throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(
                sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT, amount REAL, bytes BLOB)"
            )
            try BulkInsert("t", columns: ["id", "name", "note", "amount", "bytes"]).insert(db, count: count) {
                row,
                values in
                values.integer(Int64(row))
                values.text(row % 3 == 0 ? "" : "name \(row) é 🧪")
                values.text(row % 2 == 0 ? nil : "note")
                values.double(Double(row) / 4)
                values.value(Data(row % 5 == 0 ? [] : [0, 1, UInt8(row % 256)]).databaseValue)
            }
        }
        let rows = try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id") }
        #expect(rows.count == count)
        for (row, stored) in rows.enumerated() {
            #expect(stored["id"] as Int64 == Int64(row))
            #expect(stored["name"] as String? == (row % 3 == 0 ? "" : "name \(row) é 🧪"))
            #expect(stored["note"] as String? == (row % 2 == 0 ? nil : "note"))
            #expect(stored["amount"] as Double == Double(row) / 4)
            #expect(stored["bytes"] as Data? == Data(row % 5 == 0 ? [] : [0, 1, UInt8(row % 256)]))
        }
    }

    @Test func replacingKeepsTheLastRowOfAKey() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE TABLE t (key TEXT PRIMARY KEY, value INTEGER)")
            try BulkInsert("t", columns: ["key", "value"], replacing: true).insert(db, count: 100) { row, values in
                values.text("k\(row % 10)")
                values.integer(Int64(row))
            }
        }
        let stored = try database.read { db in try Int64.fetchAll(db, sql: "SELECT value FROM t ORDER BY key") }
        #expect(stored == (90..<100).map(Int64.init))
    }

    @Test func aRefusedRowThrowsAndNamesTheStatement() throws {
        let database = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try database.write { db in
                try db.execute(sql: "CREATE TABLE t (key TEXT PRIMARY KEY)")
                try BulkInsert("t", columns: ["key"]).insert(db, count: 2) { _, values in values.text("same") }
            }
        }
    }
}
