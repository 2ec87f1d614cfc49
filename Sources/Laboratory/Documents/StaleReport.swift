import Foundation

/// A forced variant that is not applied, in `lab experiments --json`.
package struct StaleReport: Codable, Sendable {
    package var source: String
    package var experiment: String
    package var variant: String?
    package var reason: String

    package init(_ stale: StaleForcedVariant) {
        source = stale.forcedVariant.source
        experiment = stale.forcedVariant.experiment
        variant = stale.forcedVariant.variant
        reason = stale.reason
    }
}
