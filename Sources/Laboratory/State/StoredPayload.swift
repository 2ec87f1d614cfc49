import Foundation

/// A remote source's payload as last fetched, with what validates it.
public struct StoredPayload: Sendable, Hashable {
    public var data: Data
    /// The server's ETag, for `If-None-Match`.
    public var etag: String?
    public var fetchedAt: Date

    public init(data: Data, etag: String?, fetchedAt: Date) {
        self.data = data
        self.etag = etag
        self.fetchedAt = fetchedAt
    }
}
