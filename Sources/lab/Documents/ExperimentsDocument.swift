import ArgumentParser
import Foundation
import Laboratory

/// The `--json` shape of `lab experiments`.
struct ExperimentsDocument: Encodable {
    var token: Double
    /// Source → since when it is stabilized on this device; absent when not.
    var stabilized: [String: Date]
    var experiments: [ExperimentReport]
    var staleForcedVariants: [StaleReport]
}
