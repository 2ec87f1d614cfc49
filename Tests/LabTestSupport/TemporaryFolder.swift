import Foundation

/// A new folder of one test's own under the system's temporary directory,
/// removed with everything in it when the last reference to it goes.
///
/// A test holds it for as long as it uses the files; the removal in `deinit`
/// is a side effect, so Swift keeps the reference to the end of the scope
/// that holds it rather than releasing it after its last use. Without it,
/// every run of the suite left a few hundred folders of state files behind.
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
