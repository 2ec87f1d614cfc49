import Foundation

/// Gets the bytes a source is built from: a file, a server, or memory in tests.
public protocol Fetcher: Sendable {
    /// Fetches the current bytes; throws when they cannot be had.
    func fetch() async throws -> Data
}

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
