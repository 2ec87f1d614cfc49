import Foundation
import Laboratory

/// Reads a file each time it is asked.
public struct FileFetcher: Fetcher {
    /// The file the payload is read from.
    public var path: String

    /// A fetcher that reads the file at `path` on every fetch.
    public init(path: String) {
        self.path = path
    }

    public func fetch() async throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
