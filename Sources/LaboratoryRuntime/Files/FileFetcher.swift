import Foundation
import Laboratory

/// Reads a file each time it is asked.
public struct FileFetcher: Fetcher {
    public var path: String

    public init(path: String) {
        self.path = path
    }

    public func fetch() async throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
