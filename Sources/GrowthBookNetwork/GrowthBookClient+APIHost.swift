import Foundation
import GrowthBook
import Logging
import Synchronization

extension GrowthBookClient {
    /// A client whose payload comes from a GrowthBook API host (GrowthBook,
    /// its proxy, or `lab serve`) and stays current: fetched at once with
    /// `If-None-Match`, again every `refreshInterval`, and pushed over
    /// server-sent events as soon as the host offers them. Until the first
    /// payload arrives every feature is unknown (its default in the typed
    /// reads); ``waitForPayload(timeout:)`` waits for it. A failed fetch or a
    /// refused payload keeps the last good one and is logged.
    ///
    /// ```swift
    /// let growthBook = GrowthBookClient(apiHost: URL(string: "https://cdn.growthbook.io")!, clientKey: "sdk-abc123")
    /// _ = await growthBook.waitForPayload(timeout: .seconds(2))
    /// ```
    ///
    /// - Parameters:
    ///   - decryptionKey: the key of an SDK connection with encrypted features.
    ///   - fetcher: where payloads come from; by default HTTP from `apiHost`.
    ///   - executor: where fetching and streaming run; by default Swift's shared pool.
    public convenience init(
        apiHost: URL,
        clientKey: String,
        decryptionKey: String? = nil,
        refreshInterval: Duration = .seconds(30),
        options: Options = Options(),
        logger: Logger = Logger(label: "growthbook"),
        fetcher: (any PayloadFetcher)? = nil,
        executor: (any TaskExecutor)? = nil
    ) {
        self.init(payload: nil, options: options)
        let http = HTTPPayloadFetcher(url: HTTPPayloadFetcher.featuresURL(host: apiHost, clientKey: clientKey))
        let fetcher = fetcher ?? http
        let decrypt = PayloadDecryption.decrypter(key: decryptionKey)
        let etag = Mutex<String?>(nil)
        // The updater holds the client weakly: the client holds the updater, and releasing it stops both.
        let updater = GrowthBookUpdater(
            every: refreshInterval,
            streamURL: fetcher is HTTPPayloadFetcher
                ? GrowthBookStreamer.streamURL(host: apiHost, clientKey: clientKey) : nil,
            streamingOffered: { http.streaming.isEnabled },
            fetch: { [weak self] in
                do {
                    switch try await fetcher.fetch(etag: etag.withLock { $0 }) {
                    case .payload(let data, let tag):
                        try self?.replacePayload(data, decrypt: decrypt)
                        etag.withLock { $0 = tag }
                    case .notModified: break
                    }
                } catch {
                    logger.warning("GrowthBook payload not updated: \(error)", metadata: ["clientKey": "\(clientKey)"])
                }
            },
            receive: { [weak self] data in
                do {
                    try self?.replacePayload(data, decrypt: decrypt)
                } catch {
                    logger.warning("GrowthBook payload from the stream refused: \(error)")
                }
            },
            executor: executor
        )
        keep(updater)
        updater.start()
    }
}
