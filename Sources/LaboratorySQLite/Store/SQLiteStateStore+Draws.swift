import Foundation
internal import GRDB
import Laboratory

extension SQLiteStateStore {
    public func settleDraws(
        source: String,
        experiments: [String],
        at time: Date,
        decide: (String, Draw?) -> DrawDecision
    ) throws -> [String: Draw] {
        // Decide in a read first: when every decision keeps what is stored, as
        // on all but the first start, no write lock is taken at all. Decisions
        // made here are reused below for draws that did not change since,
        // so `decide` (which may draw) runs once per experiment. They are kept
        // by position, in a list made once: at 10,000 experiments a growing
        // dictionary of them was 2 MB at the peak of a console's start.
        var early: [(stored: Draw?, decision: DrawDecision)] = []
        early.reserveCapacity(experiments.count)
        let unchanged = try read { db -> [String: Draw]? in
            let draws = try Self.draws(db, source: source, expecting: experiments.count)
            var needsWrite = false
            var listedDraws = 0
            for experiment in experiments {
                let stored = draws[experiment]
                if stored != nil { listedDraws += 1 }
                let decision = decide(experiment, stored)
                early.append((stored, decision))
                switch decision {
                case .keep: continue
                case .forget where stored == nil: continue
                default: needsWrite = true
                }
            }
            // A draw of an experiment the catalog no longer lists is forgotten (a write).
            return needsWrite || listedDraws < draws.count ? nil : draws
        }
        if let unchanged { return unchanged }
        return try write { db in
            var draws = try Self.draws(db, source: source, expecting: experiments.count)
            var changed = false
            func decision(_ position: Int) -> DrawDecision {
                let (experiment, made) = (experiments[position], early[position])
                if made.stored == draws[experiment] { return made.decision }
                return decide(experiment, draws[experiment])
            }
            // Statements prepared once, not a record's SQL built per row: a first
            // start draws for thousands of experiments (2 s instead of 0.8 s for
            // 10,000), and writes the new draws many rows a statement.
            let delete = try db.cachedStatement(sql: "DELETE FROM draws WHERE source = ? AND experiment = ?")
            var chosen: [(experiment: String, variant: String)] = []
            let listed = Set(experiments)
            for experiment in draws.keys where !listed.contains(experiment) {
                try delete.execute(arguments: [source, experiment])
                draws[experiment] = nil
                changed = true
            }
            for (position, experiment) in experiments.enumerated() {
                switch decision(position) {
                case .keep:
                    continue
                case .choose(let variant):
                    chosen.append((experiment, variant))
                    draws[experiment] = Draw(variant: variant, drawnAt: time)
                case .forget:
                    guard draws[experiment] != nil else { continue }
                    try delete.execute(arguments: [source, experiment])
                    draws[experiment] = nil
                }
                changed = true
            }
            try BulkInsert("draws", columns: ["source", "experiment", "variant", "drawnAt"], replacing: true)
                .insert(db, count: chosen.count) { row, values in
                    values.text(source)
                    values.text(chosen[row].experiment)
                    values.text(chosen[row].variant)
                    values.double(time.timeIntervalSince1970)
                }
            if changed { try Self.bumpRevision(db, device: true) }
            return draws
        }
    }

    public func draws(source: String) throws -> [String: Draw] {
        try read { db in try Self.draws(db, source: source, expecting: 0) }
    }

    /// The source's draws, in a dictionary sized for `count` of them.
    private static func draws(_ db: Database, source: String, expecting count: Int) throws -> [String: Draw] {
        // A cursor: no array of thousands of records on a first start.
        let records = try DrawRecord.filter(Column("source") == source).fetchCursor(db)
        var draws: [String: Draw] = [:]
        draws.reserveCapacity(count)
        while let record = try records.next() {
            draws[record.experiment] = Draw(
                variant: record.variant,
                drawnAt: Date(timeIntervalSince1970: record.drawnAt)
            )
        }
        return draws
    }

    // MARK: - Stabilization

    public func stabilization(source: String) throws -> Date? {
        try read { db in try StabilizationRecord.fetchOne(db, key: source)?.time }
    }

    public func stabilizedPayload(source: String) throws -> Data? {
        try read { db in try StabilizationRecord.fetchOne(db, key: source)?.payload }
    }

    public func stabilize(source: String, at time: Date, keeping payload: Data?) throws {
        try write { db in
            // The first stabilization is kept, with the payload of its moment.
            guard try !StabilizationRecord.exists(db, key: source) else { return }
            try StabilizationRecord(source: source, time: time, payload: payload).insert(db)
            try Self.bumpRevision(db, device: true)
        }
    }

    public func unstabilize(source: String) throws {
        try write { db in
            if try StabilizationRecord.deleteOne(db, key: source) { try Self.bumpRevision(db, device: true) }
        }
    }
}
