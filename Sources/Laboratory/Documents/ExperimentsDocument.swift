import Foundation

/// The `--json` shape of `lab experiments`.
package struct ExperimentsDocument: Codable, Sendable {
    package var token: Double
    /// Source → since when it is stabilized on this device; absent when not.
    package var stabilized: [String: Date]
    package var experiments: [ExperimentReport]
    package var staleForcedVariants: [StaleReport]
}

extension ExperimentsDocument {
    /// Every experiment the debug source lists, as the manager's `snapshot` has them on this device.
    package init(debug: DebugSource, snapshot: AssignmentsSnapshot, token: ActiveExperimentsToken) throws {
        var stabilized: [String: Date] = [:]
        for source in debug.sources {
            if let date = try source.stabilization() { stabilized[source.name] = date }
        }
        self.init(
            token: token.value,
            stabilized: stabilized,
            experiments: try debug.entries().map { ExperimentReport(entry: $0, snapshot: snapshot) },
            staleForcedVariants: try debug.staleForcedVariants().map(StaleReport.init)
        )
    }
}
