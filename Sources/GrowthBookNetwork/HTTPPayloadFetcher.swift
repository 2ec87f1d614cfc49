import Foundation
import GrowthBook
import Synchronization

/// Fetches a GrowthBook payload over HTTP: `If-None-Match` with the last ETag,
/// a 5 s connect (idle) and 15 s whole-request timeout, an 8 MiB body cap
/// enforced while the body streams in, and at most 5 redirects.
public struct HTTPPayloadFetcher: PayloadFetcher {
    /// The payload's URL (``featuresURL(host:clientKey:)``).
    public var url: URL
    /// Seconds a connection may wait for bytes.
    public var idleTimeout: TimeInterval
    /// Seconds the whole request may take, however slowly bytes arrive.
    public var requestTimeout: TimeInterval
    /// The largest body taken; a larger one is refused while it streams in.
    public var maximumBytes: Int
    /// Redirects followed at most.
    public var maximumRedirects: Int
    /// Set once a response says the server streams updates (`x-sse-support: enabled`).
    public let streaming = StreamingSupport()

    /// Why a fetch failed, in words for the status line.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, for a status line.
        public var description: String
    }

    /// A fetcher with the given bounds.
    public init(
        url: URL,
        idleTimeout: TimeInterval = 5,
        requestTimeout: TimeInterval = 15,
        maximumBytes: Int = 8 << 20,
        maximumRedirects: Int = 5
    ) {
        self.url = url
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
    }

    /// The features endpoint for a client key: `<host>/api/features/<clientKey>`.
    public static func featuresURL(host: URL, clientKey: String) -> URL {
        host.appendingPathComponent("api").appendingPathComponent("features").appendingPathComponent(clientKey)
    }

    /// Fetches the payload, `If-None-Match: etag` when given: a 304 is `PayloadResponse/notModified`.
    public func fetch(etag: String?) async throws -> PayloadResponse {
        let exchange = HTTPExchange(
            .GET,
            url,
            headers: [("Accept", "application/json")] + (etag.map { [("If-None-Match", $0)] } ?? []),
            idleTimeout: idleTimeout,
            requestTimeout: requestTimeout,
            maximumBytes: maximumBytes,
            maximumRedirects: maximumRedirects
        )
        let response: HTTPExchange.Response
        do {
            response = try await exchange.response()
        } catch let failure as HTTPExchange.Failure {
            throw Failure(description: failure.description)
        }
        switch response.status {
        case 304:
            return .notModified
        case 200..<300:
            if response.headers.first(name: "x-sse-support")?.lowercased() == "enabled" { streaming.enable() }
            return .payload(response.body, etag: response.headers.first(name: "ETag"))
        default:
            throw Failure(description: "HTTP \(response.status) from \(url.absoluteString)")
        }
    }
}

/// Whether a server offered server-sent events (`x-sse-support: enabled`), set by the fetcher.
public final class StreamingSupport: Sendable {
    private let enabled = Mutex(false)

    /// Whether a response offered them.
    public var isEnabled: Bool { enabled.withLock { $0 } }

    func enable() { enabled.withLock { $0 = true } }
}
