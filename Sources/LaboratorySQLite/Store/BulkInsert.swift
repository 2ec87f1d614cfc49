import Foundation
internal import GRDB
import GRDBSQLite

/// Many rows into one table: a statement inserts up to
/// ``rowsPerStatement`` rows at once, prepared once per connection, and
/// values are bound through SQLite's own calls.
///
/// A first start writes 10,000 draws, 20,000 active assignments and 20,000
/// events: a statement run per row, its arguments made into GRDB's values,
/// was a third of writing them.
struct BulkInsert {
    /// `INSERT INTO table (columns) VALUES `, or `INSERT OR REPLACE …`.
    private let head: String
    private let columns: Int

    /// As many rows as one statement inserts: 64 rows of a dozen columns
    /// stay far below SQLite's limit on bound values (32,766).
    static let rowsPerStatement = 64

    init(_ table: String, columns: [String], replacing: Bool = false) {
        head = "INSERT \(replacing ? "OR REPLACE " : "")INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        self.columns = columns.count
    }

    /// Inserts `count` rows, in order; `bind` binds row `row`'s values, each column once, in order.
    func insert(_ db: Database, count: Int, bind: (_ row: Int, _ values: inout Values) throws -> Void) throws {
        var first = 0
        while first < count {
            let rows = min(Self.rowsPerStatement, count - first)
            let statement = try db.cachedStatement(sql: sql(rows: rows))
            let raw = statement.sqliteStatement
            sqlite3_reset(raw)
            var values = Values(statement: raw)
            for row in first..<(first + rows) { try bind(row, &values) }
            precondition(values.next == Int32(rows * columns + 1), "every column of every row bound once")
            let code = sqlite3_step(raw)
            sqlite3_reset(raw)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) },
                    sql: head
                )
            }
            first += rows
        }
    }

    private func sql(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return head + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// The values of the rows a statement inserts, bound one after another.
    struct Values {
        fileprivate let statement: OpaquePointer
        fileprivate var next: Int32 = 1

        fileprivate init(statement: OpaquePointer) {
            self.statement = statement
        }

        /// SQLite copies what it is given (`SQLITE_TRANSIENT`): the strings need not outlive the call.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                // No address would bind NULL: the empty string is bound as empty text.
                if let address = bytes.baseAddress {
                    _ = sqlite3_bind_text(statement, next, address, Int32(bytes.count), Self.transient)
                } else {
                    _ = sqlite3_bind_text(statement, next, "", 0, nil)
                }
            }
            next += 1
        }

        mutating func text(_ text: String?) {
            if let text { self.text(text) } else { null() }
        }

        mutating func integer(_ value: Int64) {
            sqlite3_bind_int64(statement, next, value)
            next += 1
        }

        mutating func double(_ value: Double) {
            sqlite3_bind_double(statement, next, value)
            next += 1
        }

        mutating func null() {
            sqlite3_bind_null(statement, next)
            next += 1
        }

        /// A value already in GRDB's form (a stored time, a value column).
        mutating func value(_ value: DatabaseValue) {
            switch value.storage {
            case .null: null()
            case .int64(let integer): self.integer(integer)
            case .double(let double): self.double(double)
            case .string(let string): text(string)
            case .blob(let data):
                data.withUnsafeBytes { bytes in
                    // No address would bind NULL: no bytes are bound as an empty blob.
                    if let address = bytes.baseAddress, !bytes.isEmpty {
                        _ = sqlite3_bind_blob(statement, next, address, Int32(bytes.count), Self.transient)
                    } else {
                        _ = sqlite3_bind_zeroblob(statement, next, 0)
                    }
                }
                next += 1
            }
        }
    }
}
