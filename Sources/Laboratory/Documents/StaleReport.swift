import Foundation

/// A forced variant that is not applied, in `lab experiments --json`.
public struct StaleReport: Codable, Sendable {
    public var source: String
    public var experiment: String
    public var variant: String?
    public var reason: String

    public init(_ stale: StaleForcedVariant) {
        source = stale.forcedVariant.source
        experiment = stale.forcedVariant.experiment
        variant = stale.forcedVariant.variant
        reason = stale.reason
    }
}
