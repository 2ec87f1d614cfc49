import Foundation

/// Gets a remote source's payload, revalidating with the last ETag.
public protocol PayloadFetcher: Sendable {
    /// Fetches the payload, sending `etag` (the last one received) so an unchanged payload comes back as not modified.
    func fetch(etag: String?) async throws -> PayloadResponse
}

/// What a payload fetch brought.
public enum PayloadResponse: Sendable, Equatable {
    /// A payload, and its ETag if the server sent one.
    case payload(Data, etag: String?)
    /// The server's copy has not changed (HTTP 304).
    case notModified
}
