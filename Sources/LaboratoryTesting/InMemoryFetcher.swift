import Foundation
import Laboratory
import Synchronization

/// Hands out whatever a test puts in it, or fails as told.
public final class InMemoryFetcher: Fetcher, Sendable {
    private let next = Mutex<Result<Data, any Error>>(.success(Data()))

    /// A fetcher that answers `data` until the test sets something else.
    public init(_ data: Data = Data()) {
        next.withLock { $0 = .success(data) }
    }

    /// What the following fetches return.
    public func serve(_ data: Data) {
        next.withLock { $0 = .success(data) }
    }

    /// Makes the following fetches fail with `error`.
    public func fail(with error: any Error) {
        next.withLock { $0 = .failure(error) }
    }

    public func fetch() async throws -> Data {
        try next.withLock({ $0 }).get()
    }
}
