internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func appWirings() throws -> [AppWiring] {
        try read { db in
            try AppWiringRecord.order(Column("app")).fetchAll(db).map {
                AppWiring(app: $0.app, hasDebugSource: $0.hasDebugSource)
            }
        }
    }

    public func recordAppWiring(_ wiring: AppWiring) throws {
        // Read first: an app starting as it was wired before writes nothing.
        let known = try read { db in try AppWiringRecord.filter(Column("app") == wiring.app).fetchOne(db) }
        if known?.hasDebugSource == wiring.hasDebugSource { return }
        try write { db in
            let stored = try AppWiringRecord.filter(Column("app") == wiring.app).fetchOne(db)
            if stored?.hasDebugSource == wiring.hasDebugSource { return }
            try AppWiringRecord(app: wiring.app, hasDebugSource: wiring.hasDebugSource).insert(db, onConflict: .replace)
            try Self.bumpRevision(db)
        }
    }
}
