import GRDB
import Laboratory

/// Events keep values in their natural SQLite type, so an analyst's
/// `SELECT value FROM events` reads `blue` and `12`, not JSON.
/// Booleans are stored as 0 and 1, the SQLite way; the event table keeps
/// their type in a column of its own, so they read back as booleans.
extension AssignmentValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        switch self {
        case .string(let value): return value.databaseValue
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int64(value).databaseValue }
            return value.databaseValue
        case .bool(let value): return value.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> AssignmentValue? {
        switch dbValue.storage {
        case .string(let value): return .string(value)
        case .int64(let value): return .number(Double(value))
        case .double(let value): return .number(value)
        case .blob(let bytes): return .string(String(decoding: bytes, as: UTF8.self))  // text that holds a NUL
        case .null: return nil
        }
    }
}
