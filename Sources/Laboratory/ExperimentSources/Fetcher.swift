import Foundation

/// Gets the bytes a source is built from: a file, a server, or memory in tests.
public protocol Fetcher: Sendable {
    /// Fetches the current bytes; throws when they cannot be had.
    func fetch() async throws -> Data
}
