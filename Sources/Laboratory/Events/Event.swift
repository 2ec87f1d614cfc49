import Foundation

/// One analytics row: what happened to which assignment on which device.
public struct Event: Sendable, Hashable, Codable {
    /// When it happened.
    public var time: Date
    /// The device's id.
    public var device: String
    /// The source of the experiment.
    public var source: String
    /// The experiment's name within its source.
    public var experiment: String
    /// The variant the device had.
    public var variant: String
    /// The assignment key the event is about.
    public var key: String
    /// The key's value in that variant.
    public var value: AssignmentValue
    /// What happened: `activated`, `deactivated`, `displayed`, `initiated` or an app's own.
    public var reason: EventReason
    /// Whether a person forced the variant (QA): such exposures are not
    /// experiment data, and the sample-ratio check leaves them out.
    public var forced: Bool
    /// Who forced it, when the forced variant says (a tester's name).
    public var tester: String?

    /// An event; `forced` and `tester` say whether a person had forced the variant, and who.
    public init(
        time: Date,
        device: String,
        source: String,
        experiment: String,
        variant: String,
        key: String,
        value: AssignmentValue,
        reason: EventReason,
        forced: Bool = false,
        tester: String? = nil
    ) {
        self.time = time
        self.device = device
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.key = key
        self.value = value
        self.reason = reason
        self.forced = forced
        self.tester = tester
    }

    /// An event about one assignment.
    public init(
        _ assignment: Assignment,
        reason: EventReason,
        device: String,
        time: Date,
        forced: Bool = false,
        tester: String? = nil
    ) {
        self.init(
            time: time,
            device: device,
            source: assignment.source,
            experiment: assignment.experiment,
            variant: assignment.variant,
            key: assignment.key,
            value: assignment.value,
            reason: reason,
            forced: forced,
            tester: tester
        )
    }
}

/// An event as stored, with the row id the event table gave it.
public struct RecordedEvent: Sendable, Hashable, Codable {
    /// Increases with every row; later rows have larger ids.
    public var id: Int64
    /// The event as recorded.
    public var event: Event

    /// The event recorded as row `id`.
    public init(id: Int64, event: Event) {
        self.id = id
        self.event = event
    }
}

extension RecordedEvent {
    /// The event with a boolean value where a row from before booleans kept
    /// their type holds 0 or 1 and the experiment assigns the key booleans;
    /// any other event as it is.
    /// - Parameter experiments: the experiments the catalogs hold.
    public func restoringBoolean(from experiments: [ExperimentID: Experiment]) -> RecordedEvent {
        guard case .number(let number) = event.value, number == 0 || number == 1,
            let experiment = experiments[event.experimentID],
            experiment.variants.contains(where: { $0.assignments[event.key]?.boolValue != nil })
        else { return self }
        var restored = self
        restored.event.value = .bool(number == 1)
        return restored
    }
}
