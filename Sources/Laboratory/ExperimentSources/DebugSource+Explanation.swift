import Foundation

extension DebugSource {
    /// Why one experiment is what it is on this device, step by step, as
    /// `lab explain`, the console and the steering API tell it: the
    /// experiment found as ``locate(experiment:in:)`` finds it, explained by
    /// the source that owns it.
    /// - Parameters:
    ///   - name: the experiment, as a person typed it.
    ///   - source: the source it is in, when the person said.
    ///   - snapshot: what the manager serves now.
    ///   - device: this device, whose token and id decide a catalog's experiments.
    ///   - attributes: whose scoped forced variants apply (a user the
    ///     explanation is for); the device's own attributes when `nil`.
    ///   - time: how the steps write a time.
    /// - Returns: the explanation, and the entry it explains (its forced variant chosen for `attributes`).
    public func explanation(
        of name: String,
        in source: String?,
        snapshot: AssignmentsSnapshot,
        device: Device,
        for attributes: [String: String]? = nil,
        time: (Date) -> String = Timestamp.iso8601
    ) throws -> (explanation: Explanation, entry: DebugEntry) {
        let (sourceName, found) = try locate(experiment: name, in: source)
        guard var entry = try entries().first(where: { $0.source == sourceName && $0.experiment.name == found.name })
        else {
            throw DebugSourceError.unknownExperiment(name, source: source)
        }
        if let attributes {
            entry = DebugEntry(
                source: entry.source,
                experiment: entry.experiment,
                natural: entry.natural,
                forcedVariants: entry.forcedVariants,
                attributes: attributes
            )
        }
        let owner = sources.first { $0.name == sourceName }
        let explanation = Explanation(
            entry: entry,
            snapshot: snapshot,
            device: device,
            userID: owner?.drawing?.userID,
            draw: try owner?.drawing?.draws()[found.name],
            stabilizedAt: try owner?.stabilization(),
            decisionSteps: owner?.explaining?.decisionSteps(for: [found.name])[found.name],
            time: time
        )
        return (explanation, entry)
    }
}
