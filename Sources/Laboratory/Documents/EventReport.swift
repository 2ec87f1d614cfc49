import Foundation

/// One event row in JSON: `lab events --json` and the steering API.
package struct EventReport: Codable, Sendable {
    package var id: Int64
    package var time: Date
    package var device: String
    package var source: String
    package var experiment: String
    package var variant: String
    package var key: String
    package var value: AssignmentValue
    package var reason: String
    /// Whether a person had forced the variant.
    package var forced: Bool
    /// Who had forced it, when known.
    package var tester: String?

    package init(_ row: RecordedEvent) {
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
        tester = row.event.tester
    }
}

extension RecordedEvent {
    /// The row a report describes.
    package init(_ report: EventReport) {
        self.init(
            id: report.id,
            event: Event(
                time: report.time,
                device: report.device,
                source: report.source,
                experiment: report.experiment,
                variant: report.variant,
                key: report.key,
                value: report.value,
                reason: EventReason(rawValue: report.reason),
                forced: report.forced,
                tester: report.tester
            )
        )
    }
}
