import ArgumentParser
import Foundation
import Laboratory

/// A forced variant that is not applied, in `lab experiments --json`.
struct StaleReport: Encodable {
    var source: String
    var experiment: String
    var variant: String?
    var reason: String

    init(request: StaleForcedVariant) {
        source = request.forcedVariant.source
        experiment = request.forcedVariant.experiment
        variant = request.forcedVariant.variant
        reason = request.reason
    }
}
