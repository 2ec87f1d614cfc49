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

/// Hands out whatever a test puts in it, or fails as told.
public final class InMemoryFetcher: Fetcher, @unchecked Sendable {
    private let next = Locked<Result<Data, any Error>>(.success(Data()))

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
        try next.current.get()
    }
}
