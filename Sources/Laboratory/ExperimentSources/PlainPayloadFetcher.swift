import Foundation
import GrowthBook

/// Any plain ``Fetcher`` (a file, memory) as a payload fetcher: no ETags.
public struct PlainPayloadFetcher: PayloadFetcher {
    public let fetcher: any Fetcher

    public init(_ fetcher: any Fetcher) {
        self.fetcher = fetcher
    }

    public func fetch(etag: String?) async throws -> PayloadResponse {
        .payload(try await fetcher.fetch(), etag: nil)
    }
}
