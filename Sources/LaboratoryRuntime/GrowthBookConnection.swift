import Foundation
import GrowthBookNetwork

/// Where an app's GrowthBook payload comes from and how it stays current:
/// what ``LocalLaboratory`` needs to add a GrowthBook source and keep it
/// updated, as GrowthBook's SDKs do with `apiHost`, `clientKey` and auto-refresh.
public struct GrowthBookConnection: Sendable {
    /// The payload's URL (`<apiHost>/api/features/<clientKey>`).
    public var featuresURL: URL
    /// Where server-sent events come from (`<apiHost>/sub/<clientKey>`); `nil` polls only.
    public var streamURL: URL?
    /// The key of an encrypted payload (`encryptedFeatures`).
    public var decryptionKey: String?
    /// The user's attributes; the device id is added as `id` unless one is given.
    public var attributes: [String: String]
    /// The time between two fetches.
    public var refreshInterval: Duration
    /// Whether ``LocalLaboratory`` starts updating as it opens; otherwise the
    /// app calls `updater.start()` when it wants updates (a one-shot tool never does).
    public var autoRefresh: Bool

    /// A GrowthBook API host and client key: the payload is fetched from
    /// `<apiHost>/api/features/<clientKey>`, and streamed from
    /// `<apiHost>/sub/<clientKey>` once the server offers server-sent events.
    public init(
        apiHost: URL,
        clientKey: String,
        decryptionKey: String? = nil,
        attributes: [String: String] = [:],
        refreshInterval: Duration = .seconds(30),
        autoRefresh: Bool = true
    ) {
        self.init(
            featuresURL: HTTPPayloadFetcher.featuresURL(host: apiHost, clientKey: clientKey),
            decryptionKey: decryptionKey,
            attributes: attributes,
            refreshInterval: refreshInterval,
            autoRefresh: autoRefresh
        )
        streamURL = GrowthBookStreamer.streamURL(host: apiHost, clientKey: clientKey)
    }

    /// A payload at a URL of its own, polled every `refreshInterval`.
    public init(
        featuresURL: URL,
        decryptionKey: String? = nil,
        attributes: [String: String] = [:],
        refreshInterval: Duration = .seconds(30),
        autoRefresh: Bool = true
    ) {
        self.featuresURL = featuresURL
        self.decryptionKey = decryptionKey
        self.attributes = attributes
        self.refreshInterval = refreshInterval
        self.autoRefresh = autoRefresh
    }
}
