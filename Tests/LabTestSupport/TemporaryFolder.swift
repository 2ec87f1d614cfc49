import Foundation

/// A new folder of one test's own under the system's temporary directory,
/// removed with everything in it when the last reference to it goes.
///
/// Whatever uses the files holds it: a variable holds it to the end of its
/// scope (the removal is a side effect, which Swift does not move before the
/// scope's other calls), but a temporary, as in `Console(try LabHarness())`,
/// goes at the end of its statement, files and all. Without it, every run of
/// the suite left a few hundred folders of state files behind.
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path, with no trailing slash.
    public let path: String

    /// Makes `<temporary directory>/<prefix>-<UUID>`.
    public init(_ prefix: String) throws {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Makes a new, empty folder inside this one, for a test that needs
    /// more than one place (two state files, a copy beside an original).
    public func newFolder() throws -> String {
        let folder = file(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
