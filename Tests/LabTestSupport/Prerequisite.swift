import Foundation
import LabDrivers
import Testing

/// Tools and references some suites need (tmux, Chromium, the Python
/// clients, node, `../shared`), and what their absence means where.
///
/// On a developer's machine a suite whose tool is missing is skipped, with
/// a message saying how to get it. Under continuous integration (`CI=true`,
/// as `.ci/run` is run) the suite runs anyway and fails on what is missing,
/// so a green run cannot hide a suite that never ran.
public enum Prerequisite {
    /// Whether the tests run under continuous integration.
    public static let isCI: Bool = {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return value == "true" || value == "1"
    }()

    /// The path of the program `name` on `PATH`; throws, saying so, when
    /// there is none (as under `CI=true`, where its suite runs regardless).
    public static func require(_ name: String) throws -> String {
        guard let path = ExecutableSearch.find(name) else { throw Missing(program: name) }
        return path
    }

    /// A program a test needs is not on `PATH`.
    public struct Missing: Error, CustomStringConvertible {
        public var program: String

        public init(program: String) {
            self.program = program
        }

        public var description: String { "\(program) is not on PATH" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite when `available`; skips it with `missing` on a
    /// developer's machine, and runs it regardless under `CI=true`, where
    /// the missing tool makes it fail.
    public static func requires(_ available: @autoclosure @escaping @Sendable () -> Bool, _ missing: Comment) -> Self {
        .enabled(if: available() || Prerequisite.isCI, missing)
    }
}
