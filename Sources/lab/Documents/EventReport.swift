import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// One event row in JSON.
struct EventReport: Encodable {
    var id: Int64
    var time: Date
    var device: String
    var source: String
    var experiment: String
    var variant: String
    var key: String
    var value: AssignmentValue
    var reason: String
    /// Whether a person had forced the variant.
    var forced: Bool

    init(_ row: RecordedEvent) {
        id = row.id
        time = row.event.time
        device = row.event.device
        source = row.event.source
        experiment = row.event.experiment
        variant = row.event.variant
        key = row.event.key
        value = row.event.value
        reason = row.event.reason.rawValue
        forced = row.event.forced
    }
}
