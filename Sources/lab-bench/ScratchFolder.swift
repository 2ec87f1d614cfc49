import Foundation

/// A new folder under the temporary directory for one benchmark's files.
struct ScratchFolder {
    let path: String

    /// Creates `lab-bench-NAME-<uuid>`.
    init(_ name: String) throws {
        path = NSTemporaryDirectory() + "lab-bench-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the folder and what it holds.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
