import Foundation

/// A remote source's payload as last fetched, with what validates it.
public struct StoredPayload: Sendable, Hashable {
    /// The payload's bytes, as fetched.
    public var data: Data
    /// The server's ETag, for `If-None-Match`.
    public var etag: String?
    /// When it was fetched.
    public var fetchedAt: Date

    /// A payload fetched at `fetchedAt`, with its ETag if the server sent one.
    public init(data: Data, etag: String?, fetchedAt: Date) {
        self.data = data
        self.etag = etag
        self.fetchedAt = fetchedAt
    }
}
