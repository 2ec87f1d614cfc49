import Foundation

/// Everything a console shows, read in one step: the experiments with their
/// forced variants, the assignments, the sources' statuses, draws, recent
/// events and how each source decides. The console on a state file reads it
/// from the framework; a console connected to `lab serve` gets it from the
/// steering API (`GET …/snapshot`), so both show the same thing.
package struct SteeringSnapshot: Sendable, Codable, Equatable {
    /// A source as Settings shows it.
    package struct Source: Sendable, Codable, Equatable {
        package var name: String
        package var status: SourceStatus
        package var stabilizedAt: Date?
        package var experimentCount: Int
        /// A line on how the source is doing beyond its status, if it has one.
        package var detail: String?
    }

    package var sources: [Source]
    package var entries: [DebugEntry]
    package var snapshot: AssignmentsSnapshot
    package var staleForcedVariants: [StaleForcedVariant]
    /// The newest events first.
    package var events: [RecordedEvent]
    /// Each source's draws, by experiment.
    package var draws: [String: [String: Draw]]
    package var device: Device
    package var userID: String?
    package var appWirings: [AppWiring]
    /// How each source decides its experiments, by source and experiment, where it says so itself.
    package var decisionSteps: [String: [String: [Explanation.Step]]]
    /// The state file's revision when this was read.
    package var revision: Int64
    /// The device's attributes and those its targeting reads, for the Attributes screen.
    package var attributes: [DeviceAttribute]

    /// Reads it from the framework.
    ///
    /// - Parameter scope: whose forced variants the entries show as
    ///   deciding: this device's (everyone) or a scope's users'.
    /// - Parameter explainingEvery: whether ``decisionSteps`` holds every
    ///   experiment's steps (a client of the steering API reads them all
    ///   from here), or none: the console on the framework asks for the
    ///   highlighted experiment's alone, when it is shown.
    package static func read(
        manager: AssignmentsManager,
        debug: DebugSource,
        store: any ActiveSetStore,
        log: any EventLog,
        eventLimit: Int,
        scope: Scope = .everyone,
        explainingEvery: Bool = true
    ) throws -> SteeringSnapshot {
        let snapshot = try manager.refresh()
        let revision = try store.revision()
        var events = try log.latestEvents(limit: eventLimit)
        // Rows from before booleans kept their type read 0 and 1: the experiments tell which were booleans.
        if events.contains(where: { $0.event.value == 0 || $0.event.value == 1 }) {
            var experiments: [ExperimentID: Experiment] = [:]
            for source in debug.sources {
                for experiment in source.experiments {
                    experiments[ExperimentID(source: source.name, name: experiment.name)] = experiment
                }
            }
            events = events.map { $0.restoringBoolean(from: experiments) }
        }
        let statuses = manager.statuses
        var sources: [Source] = []
        var draws: [String: [String: Draw]] = [:]
        var decisionSteps: [String: [String: [Explanation.Step]]] = [:]
        for source in debug.sources {
            sources.append(
                Source(
                    name: source.name,
                    status: statuses[source.name] ?? .idle,
                    stabilizedAt: try source.stabilization(),
                    experimentCount: source.experiments.count,
                    detail: source.fetching?.statusDetail
                )
            )
            draws[source.name] = try source.drawing?.draws() ?? [:]
            if explainingEvery {
                let steps = source.explaining?.decisionSteps(for: nil) ?? [:]
                if !steps.isEmpty { decisionSteps[source.name] = steps }
            }
        }
        // The refresh above evaluated every source through the debug source
        // when the manager wraps it (as every wiring does): read that evaluation.
        let refreshedDebug = manager.sources.contains { $0 === debug }
        var entries = try (refreshedDebug ? debug.latestEntries : nil) ?? debug.entries()
        if !scope.isEveryone {
            let attributes = debug.deviceAttributes.merging(scope.attributes) { _, given in given }
            entries = entries.map {
                DebugEntry(
                    source: $0.source,
                    experiment: $0.experiment,
                    natural: $0.natural,
                    forcedVariants: $0.forcedVariants,
                    attributes: attributes
                )
            }
        }
        return SteeringSnapshot(
            sources: sources,
            entries: entries,
            snapshot: snapshot,
            staleForcedVariants: try debug.staleForcedVariants(),
            events: events,
            draws: draws,
            device: manager.device,
            userID: debug.sources.lazy.compactMap { $0.drawing?.userID }.first,
            appWirings: try store.appWirings(),
            decisionSteps: decisionSteps,
            revision: revision,
            attributes: debug.attributeList(entries: entries)
        )
    }
}
