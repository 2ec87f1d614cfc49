internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func appWirings() throws -> [AppWiring] {
        try read { db in
            try AppWiringRecord.order(Column("app")).fetchAll(db).map(\.wiring)
        }
    }

    public func recordAppWiring(_ wiring: AppWiring) throws {
        // Read first: the same process recording the same wiring again writes nothing.
        let known = try read { db in try AppWiringRecord.filter(Column("app") == wiring.app).fetchOne(db) }
        if known?.wiring == wiring { return }
        try write { db in
            let stored = try AppWiringRecord.filter(Column("app") == wiring.app).fetchOne(db)
            if stored?.wiring == wiring { return }
            try AppWiringRecord(wiring).insert(db, onConflict: .replace)
            try Self.bumpRevision(db)
        }
    }
}
