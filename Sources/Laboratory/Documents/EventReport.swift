import Foundation

/// One event row in JSON: `lab events --json` and the steering API.
public struct EventReport: Codable, Sendable {
    public var id: Int64
    public var time: Date
    public var device: String
    public var source: String
    public var experiment: String
    public var variant: String
    public var key: String
    public var value: AssignmentValue
    public var reason: String
    /// Whether a person had forced the variant.
    public var forced: Bool
    /// Who had forced it, when known.
    public var tester: String?

    public init(_ row: RecordedEvent) {
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
    public init(_ report: EventReport) {
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
