import Foundation
internal import GRDB

/// A stored value of a type no release writes there (bytes that are not
/// text where text belongs), found while decoding a row.
struct DamagedValue: Error, CustomStringConvertible {
    var description: String

    /// The text in `column`, read strictly: GRDB's fast path would turn
    /// bytes that are not UTF-8 into replacement characters without a word.
    static func text(_ row: Row, _ column: String, table: String) throws -> String {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .string(let text):
            return text
        case .blob(let bytes):
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            fallthrough
        default:
            let id: DatabaseValue = row["id"]
            throw DamagedValue(
                description: "column \(column) of table \(table) holds \(value), not text (row id:\(id))"
            )
        }
    }

    /// The time in `column` (text as SQLite writes it, or Unix seconds).
    /// Only ASCII text reaches GRDB's date parser: it subtracts "0" from a
    /// signed byte, and a byte above 0x7F traps there (the state fuzzer found it).
    static func time(_ row: Row, _ column: String, table: String) throws -> Date {
        let value: DatabaseValue = row[column]
        let readable: Bool
        switch value.storage {
        case .string(let text): readable = text.utf8.allSatisfy { $0 < 0x80 }
        case .int64, .double: readable = true
        case .blob, .null: readable = false
        }
        // The form every release writes is read without Foundation's calendar (`StoredTime`).
        if case .string(let text) = value.storage, let time = StoredTime.date(text) { return time }
        guard readable, let time = Date.fromDatabaseValue(value) else {
            let id: DatabaseValue = row["id"]
            throw DamagedValue(
                description: "column \(column) of table \(table) holds \(value), not a time (row id:\(id))"
            )
        }
        return time
    }
}
