import Foundation
import GrowthBook

/// Any plain ``Fetcher`` (a file, memory) as a payload fetcher: no ETags.
public struct PlainPayloadFetcher: PayloadFetcher {
    /// The fetcher whose bytes are the payload.
    public let fetcher: any Fetcher

    /// A payload fetcher over `fetcher`.
    public init(_ fetcher: any Fetcher) {
        self.fetcher = fetcher
    }

    /// The fetcher's bytes, as a new payload every time (a plain fetcher has no ETags).
    public func fetch(etag: String?) async throws -> PayloadResponse {
        .payload(try await fetcher.fetch(), etag: nil)
    }
}
