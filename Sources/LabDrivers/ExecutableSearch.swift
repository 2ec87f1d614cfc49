import Foundation

/// Finds programs the way a shell does, for the benchmarks and the tests
/// that run tools beside `lab` (tmux, node, wrk, Python).
package enum ExecutableSearch {
    /// The program `name` in the first folder of `PATH` that has it, if any.
    package static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
