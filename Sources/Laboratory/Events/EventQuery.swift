import Foundation

/// Which events to read: all by default, narrowed by time, reason and experiment.
public struct EventQuery: Sendable, Hashable {
    /// Only events at or after this time.
    public var since: Date?
    /// Only these reasons; empty means any.
    public var reasons: [EventReason]
    /// Only these experiments; empty means any.
    public var experiments: [String]

    /// A query; each empty part matches everything.
    public init(since: Date? = nil, reasons: [EventReason] = [], experiments: [String] = []) {
        self.since = since
        self.reasons = reasons
        self.experiments = experiments
    }

    /// Whether `event` passes the query.
    public func matches(_ event: Event) -> Bool {
        (since.map { event.time >= $0 } ?? true)
            && (reasons.isEmpty || reasons.contains(event.reason))
            && (experiments.isEmpty || experiments.contains(event.experiment))
    }
}

/// How many devices a variant was displayed on.
public struct ExposureCount: Sendable, Hashable {
    /// The source of the experiment.
    public var source: String
    /// The experiment's name within its source.
    public var experiment: String
    /// The variant that was displayed.
    public var variant: String
    /// Exposures of devices that got the variant by the experiment's rules.
    public var count: Int
    /// Exposures while a person had forced the variant: QA, not experiment data.
    public var forced: Int

    /// A count of `displayed` events, `forced` of them while a person had forced the variant.
    public init(source: String, experiment: String, variant: String, count: Int, forced: Int = 0) {
        self.source = source
        self.experiment = experiment
        self.variant = variant
        self.count = count
        self.forced = forced
    }
}
