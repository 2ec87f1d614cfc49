import Foundation
import GrowthBook
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        // URLSession inflates compressed bodies before the cap can see them,
        // so a small gzip bomb would fill memory: ask for the body as it is
        // and refuse a compressed one (see `BodyCollector`).
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = requestTimeout
        let collector = BodyCollector(
            maximumBytes: maximumBytes,
            maximumRedirects: maximumRedirects,
            requestTimeout: requestTimeout
        )
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        let task = session.dataTask(with: request)
        defer {
            // Not `invalidateAndCancel()`: on Linux it reads the session's
            // tasks off the session's queue, racing a task that has just
            // finished there (it crashed a test run). The task is cancelled on
            // its own (nothing happens once it has finished), and the session
            // lets go of the collector when it has.
            task.cancel()
            session.finishTasksAndInvalidate()
        }
        let (response, body) = try await collector.run(task)
        switch response.statusCode {
        case 304:
            return .notModified
        case 200..<300:
            if response.value(forHTTPHeaderField: "x-sse-support")?.lowercased() == "enabled" { streaming.enable() }
            return .payload(body, etag: response.value(forHTTPHeaderField: "ETag"))
        default:
            throw Failure(description: "HTTP \(response.statusCode) from \(url.absoluteString)")
        }
    }
}

/// Whether the server offered server-sent events; shared by copies of a fetcher.
extension HTTPPayloadFetcher {
    /// Whether a redirect may go from one scheme to another: the same
    /// scheme, or `http` to `https`.
    static func allowsRedirect(from: String, to: String) -> Bool {
        (from == to && ["http", "https"].contains(to)) || (from == "http" && to == "https")
    }
}

/// Whether a server offered server-sent events (`x-sse-support: enabled`), set by the fetcher.
public final class StreamingSupport: Sendable {
    private let enabled = Mutex(false)

    /// Whether a response offered them.
    public var isEnabled: Bool { enabled.withLock { $0 } }

    func enable() { enabled.withLock { $0 = true } }
}

/// Gathers a response body, cancelling once it passes the cap.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let maximumBytes: Int
    private let maximumRedirects: Int
    private let requestTimeout: TimeInterval
    /// What has arrived so far; touched on the session's delegate queue and by the deadline.
    private struct Transfer {
        var body = Data()
        var response: HTTPURLResponse?
        var redirects = 0
        /// Why the transfer failed, once it has (later chunks are dropped).
        var failure: String?
        var continuation: CheckedContinuation<(HTTPURLResponse, Data), any Error>?
    }

    private let transfer = Mutex(Transfer())

    init(maximumBytes: Int, maximumRedirects: Int, requestTimeout: TimeInterval) {
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.requestTimeout = requestTimeout
    }

    func run(_ task: URLSessionDataTask) async throws -> (HTTPURLResponse, Data) {
        try await withCheckedThrowingContinuation { continuation in
            transfer.withLock { $0.continuation = continuation }
            task.resume()
            // URLSession on Linux does not enforce `timeoutIntervalForResource`
            // against a server that sends a byte now and then: this does.
            DispatchQueue.global().asyncAfter(deadline: .now() + requestTimeout) { [self] in
                let running = transfer.withLock { transfer in
                    guard transfer.continuation != nil else { return false }
                    if transfer.failure == nil {
                        transfer.failure =
                            "the server took longer than \(String(format: "%g", requestTimeout)) s to send the payload"
                    }
                    return true
                }
                if running { task.cancel() }
            }
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let encoding = http?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        let tooLarge = response.expectedContentLength > Int64(maximumBytes)
        let compressed = encoding.map { !$0.isEmpty && $0 != "identity" } ?? false
        transfer.withLock { transfer in
            transfer.response = http
            if tooLarge { transfer.failure = "the payload is larger than \(maximumBytes / (1 << 20)) MiB" }
            if compressed { transfer.failure = "the server sent a \(encoding ?? "") body though none was asked for" }
        }
        completionHandler(tooLarge || compressed ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = transfer.withLock { transfer in
            // Chunks keep arriving for a moment after a cancel: drop them.
            guard transfer.failure == nil else { return false }
            transfer.body.append(data)
            guard transfer.body.count > maximumBytes else { return false }
            transfer.failure = "the payload is larger than \(maximumBytes / (1 << 20)) MiB"
            return true
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let from = response.url?.scheme?.lowercased() ?? ""
        // The scheme the server asked for: URLSession on Linux turns a `Location: file:///…`
        // into a request on the same `http` host, so the request's own scheme hides it.
        let location = response.value(forHTTPHeaderField: "Location").flatMap {
            URL(string: $0, relativeTo: response.url)
        }
        let to = (location?.scheme ?? request.url?.scheme)?.lowercased() ?? ""
        let allowed = transfer.withLock { transfer in
            transfer.redirects += 1
            guard transfer.redirects <= maximumRedirects else {
                transfer.failure = "more than \(maximumRedirects) redirects"
                return false
            }
            // `file:` would be fetched as `http:` on the same host; `https` to `http` gives the key away in clear.
            guard HTTPPayloadFetcher.allowsRedirect(from: from, to: to) else {
                transfer.failure = "a redirect from \(from) to \(to.isEmpty ? "no scheme" : to) was refused"
                return false
            }
            return true
        }
        completionHandler(allowed ? request : nil)
        if !allowed { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = transfer.withLock { transfer in
            let continuation = transfer.continuation
            transfer.continuation = nil
            let outcome: Result<(HTTPURLResponse, Data), any Error>
            if let failure = transfer.failure {
                outcome = .failure(HTTPPayloadFetcher.Failure(description: failure))
            } else if let error {
                outcome = .failure(HTTPPayloadFetcher.Failure(description: Self.describe(error)))
            } else if let response = transfer.response {
                outcome = .success((response, transfer.body))
            } else {
                outcome = .failure(HTTPPayloadFetcher.Failure(description: "no HTTP response"))
            }
            return (continuation, outcome)
        }
        continuation?.resume(with: outcome)
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return "the server did not answer in time"
            case .cannotConnectToHost, .cannotFindHost: return "cannot reach the server"
            case .networkConnectionLost: return "the connection closed before the payload was complete"
            case .dnsLookupFailed: return "cannot find the host"
            case .notConnectedToInternet: return "this machine has no network"
            case .unsupportedURL: return "the URL is not http or https"
            case .badURL: return "the URL is not valid"
            case .badServerResponse, .cannotParseResponse: return "the server's answer is not HTTP"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                return "the TLS connection failed (certificate or protocol)"
            case .httpTooManyRedirects: return "too many redirects"
            // What URLSession on Linux reports when a connection is closed or reset mid-body.
            case .unknown: return "the connection closed or failed before the payload was complete"
            case .dataLengthExceedsMaximum: return "the payload is too large"
            default: return "a network error (URL error \(error.code.rawValue))"
            }
        }
        return "a network error (\(SystemErrorReason.of(error)))"
    }
}
