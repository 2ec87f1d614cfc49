import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func device(candidate: Device) throws -> Device {
        // Read first: once a device exists, nothing here needs the write lock.
        if let known = try read({ db in try Self.storedDevice(db, path: path) }) { return known }
        return try write { db in
            // Another process may have stored one meanwhile; what is stored wins.
            if let stored = try Self.storedDevice(db, path: path) { return stored }
            try DeviceRecord(id: candidate.id, token: candidate.token.value).insert(db)
            try Self.bumpRevision(db, device: true)
            return candidate
        }
    }

    /// The stored device, if any; a token that is not a number is reported.
    private static func storedDevice(_ db: Database, path: String) throws -> Device? {
        guard let record = try DeviceRecord.fetchOne(db) else { return nil }
        // Read as stored: SQLite would turn a damaged 'zz' into a token of 0 and move the device.
        let token: Double
        switch record.token.storage {
        case .int64(let value): token = Double(value)
        case .double(let value): token = value
        case .null, .string, .blob:
            throw SQLiteStoreError.unexpectedValue(
                path: path,
                detail: "the device token in table device is \(record.token.description), not a number"
            )
        }
        return Device(id: record.id, token: ActiveExperimentsToken(token))
    }
}
