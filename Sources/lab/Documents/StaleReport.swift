import ArgumentParser
import Foundation
import Laboratory

/// A forced variant that is not applied, in `lab experiments --json`.
struct StaleReport: Encodable {
    var source: String
    var experiment: String
    var variant: String?
    var reason: String

    init(_ stale: StaleForcedVariant) {
        source = stale.forcedVariant.source
        experiment = stale.forcedVariant.experiment
        variant = stale.forcedVariant.variant
        reason = stale.reason
    }
}
