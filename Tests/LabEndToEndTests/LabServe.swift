import Foundation
import LabDrivers

/// `lab serve --port 0` on the test's state file, until `stop()`.
typealias LabServe = ServedLab

extension ServedLab {
    /// `lab serve --verbose` on `lab`'s state file, with `arguments` after.
    init(_ lab: LabHarness, _ arguments: [String] = []) throws {
        try self.init(
            binary: LabHarness.binary,
            arguments: ["--verbose", "--state", lab.state] + arguments,
            environment: lab.environment
        )
    }
}
