import Foundation

/// One analytics row: what happened to which assignment on which device.
public struct Event: Sendable, Hashable {
    public var time: Date
    public var device: String
    public var source: String
    public var experiment: String
    public var variant: String
    public var key: String
    public var value: AssignmentValue
    public var reason: EventReason

    public init(
        time: Date,
        device: String,
        source: String,
        experiment: String,
        variant: String,
        key: String,
        value: AssignmentValue,
        reason: EventReason
    ) {
        self.time = time
        self.device = device
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.key = key
        self.value = value
        self.reason = reason
    }

    /// An event about one assignment.
    public init(_ assignment: Assignment, reason: EventReason, device: String, time: Date) {
        self.init(
            time: time,
            device: device,
            source: assignment.source,
            experiment: assignment.experiment,
            variant: assignment.variant,
            key: assignment.key,
            value: assignment.value,
            reason: reason
        )
    }
}

/// An event as stored, with the row id the event table gave it.
public struct RecordedEvent: Sendable, Hashable {
    /// Increases with every row; later rows have larger ids.
    public var id: Int64
    public var event: Event

    public init(id: Int64, event: Event) {
        self.id = id
        self.event = event
    }
}
