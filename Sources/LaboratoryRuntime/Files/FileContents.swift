import Foundation
import GrowthBook
import GrowthBookNetwork
import Laboratory

/// Reads a file a person named, and says in plain words why it cannot be
/// read (`no such file`, `it is a folder`, `permission denied`), where
/// Foundation would say `Error Domain=NSCocoaErrorDomain Code=260 …`.
public enum FileContents {
    /// Why a file could not be read.
    public struct Unreadable: Error, CustomStringConvertible, Sendable, Equatable {
        /// The file that could not be read.
        public var path: String
        /// Why, in the system's words (`no such file`, `permission denied`).
        public var reason: String

        public var description: String { "\(path): cannot read the file: \(reason)" }
    }

    /// The bytes of the file at `path`, or why they cannot be read.
    public static func read(_ path: String) throws(Unreadable) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw Unreadable(path: path, reason: "no such file")
        }
        if isFolder.boolValue { throw Unreadable(path: path, reason: "it is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Unreadable(path: path, reason: "permission denied")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Unreadable(path: path, reason: SystemErrorReason.of(error))
        }
    }
}
