import Foundation
import Synchronization

/// GrowthBook for an app or a server: the one object to hold. It keeps the
/// current payload (replaced whole, so an evaluation never sees half of one),
/// the app's forced features and variations, and the callbacks, and is safe
/// to share across tasks and threads.
///
/// ```swift
/// let growthBook = try GrowthBookClient(payload: data, options: .init(onExperimentViewed: { experiment, result in
///     analytics.track("Experiment Viewed", ["experiment": experiment.key, "variation": result.key])
/// }))
/// let user = growthBook.user(["id": "u1", "country": "NZ"])   // per request: no copy of the payload
/// if user.isOn("new-checkout") { … }
/// let color = user.value(for: "button-color", default: "blue")
/// ```
///
/// `GrowthBookNetwork` adds a client that fetches its payload from an API
/// host and keeps it current (``GrowthBookClient/payload``, ``replacePayload(_:)``
/// are what it uses).
public final class GrowthBookClient: Sendable {
    /// What a client is set up with.
    public struct Options: Sendable {
        /// Attributes every user of this client has, under its own (a platform, an app version).
        public var attributes: GrowthBookAttributes
        /// Feature key → value, whatever the rules say (source `override`).
        public var forcedFeatures: [String: JSONValue]
        /// Experiment key → variation index, for every user.
        public var forcedVariations: [String: Int]
        /// When `false`, no experiment runs: every feature takes its rules' forced values or default.
        public var enabled: Bool
        /// In QA mode experiments assign nobody (forced variations still apply).
        public var qaMode: Bool
        /// Called when a user is bucketed into an experiment, once per user,
        /// experiment and variation for the life of the client (a server's
        /// client remembers the last ``GrowthBookClient/rememberedViews`` of
        /// them, so its memory stays bounded however many users it serves).
        public var onExperimentViewed: (@Sendable (GrowthBookExperiment, ExperimentResult) -> Void)?
        /// Called when a feature is read, once per feature and value for the life of the client.
        public var onFeatureUsage: (@Sendable (String, FeatureResult) -> Void)?

        /// Options; callbacks and forced values are optional.
        public init(
            attributes: GrowthBookAttributes = [:],
            forcedFeatures: [String: JSONValue] = [:],
            forcedVariations: [String: Int] = [:],
            enabled: Bool = true,
            qaMode: Bool = false,
            onExperimentViewed: (@Sendable (GrowthBookExperiment, ExperimentResult) -> Void)? = nil,
            onFeatureUsage: (@Sendable (String, FeatureResult) -> Void)? = nil
        ) {
            self.attributes = attributes
            self.forcedFeatures = forcedFeatures
            self.forcedVariations = forcedVariations
            self.enabled = enabled
            self.qaMode = qaMode
            self.onExperimentViewed = onExperimentViewed
            self.onFeatureUsage = onFeatureUsage
        }
    }

    private struct State {
        var payload: GrowthBookPayload?
        var options: Options
        /// What the tracking callback was called for.
        var viewed: Set<View> = []
        /// Feature key → the value the usage callback last reported, as JSON text.
        var used: [String: String] = [:]
        /// Objects that keep the payload current, released with the client.
        var keepers: [any Sendable] = []
    }

    private let state: Mutex<State>

    /// One user seeing one variation of one experiment: what tracking reports once.
    private struct View: Hashable {
        var hashAttribute: String
        var attributeValue: String
        var experiment: String
        var variation: Int
    }

    /// How many (user, experiment, variation) views the tracking callback's
    /// deduplication remembers before it starts afresh.
    public static let rememberedViews = 100_000

    /// A client over `payload`; `nil` serves every feature as unknown until one is given.
    public init(payload: GrowthBookPayload?, options: Options = Options()) {
        state = Mutex(State(payload: payload, options: options))
    }

    /// A client over a payload's bytes (`GET /api/features/<clientKey>`);
    /// `decrypt` turns `encryptedFeatures` into JSON.
    /// - Throws: ``GrowthBookError/invalidPayload(_:diagnostics:)``, naming each unusable rule.
    public convenience init(
        payload data: Data,
        decrypt: ((String) throws -> String)? = nil,
        options: Options = Options()
    ) throws(GrowthBookError) {
        self.init(payload: try Self.decode(data, decrypt: decrypt), options: options)
    }

    /// The payload now served; `nil` before the first.
    public var payload: GrowthBookPayload? { state.withLock { $0.payload } }

    /// Serves `payload` from now on; evaluations under way finish on the one they started with.
    public func replacePayload(_ payload: GrowthBookPayload) {
        state.withLock { $0.payload = payload }
    }

    /// Serves the payload in `data` from now on; a bad one leaves the current one in place.
    /// - Throws: ``GrowthBookError/invalidPayload(_:diagnostics:)``.
    public func replacePayload(_ data: Data, decrypt: ((String) throws -> String)? = nil) throws(GrowthBookError) {
        replacePayload(try Self.decode(data, decrypt: decrypt))
    }

    /// Waits until the client has a payload, at most `timeout`; whether it has one.
    public func waitForPayload(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while payload == nil, clock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return payload != nil
    }

    /// The options as they are now.
    public var options: Options { state.withLock { $0.options } }

    /// Changes the options (forced features and variations, QA mode) for every later evaluation.
    public func updateOptions(_ change: (inout Options) -> Void) {
        state.withLock { change(&$0.options) }
    }

    /// One user of this client, for as many evaluations as a request or a
    /// screen needs: their attributes over the client's, the current payload
    /// and options taken once (later replacements reach later users).
    /// - Parameters:
    ///   - attributes: the user's attributes; they win over the client's.
    ///   - url: the page the user is on, whose query string may force
    ///     a variation (`?experiment-key=1`), as in GrowthBook's browser SDKs.
    public func user(_ attributes: GrowthBookAttributes = [:], url: String? = nil) -> GrowthBookUser {
        let (payload, options) = state.withLock { ($0.payload, $0.options) }
        return GrowthBookUser(
            client: self,
            payload: payload,
            options: options,
            attributes: options.attributes.merging(attributes),
            url: url
        )
    }

    /// A user whose experiments stay sticky: their documents read from
    /// `service` before this returns, every change saved back to it in order
    /// (GrowthBook's sticky bucketing: a user keeps their variation when
    /// weights change, and ``GrowthBookExperiment/fallbackAttribute`` counts).
    public func user(
        _ attributes: GrowthBookAttributes,
        url: String? = nil,
        stickyBuckets service: any AsyncStickyBucketService
    ) async -> GrowthBookUser {
        let user = user(attributes, url: url)
        await user.useStickyBuckets(from: service)
        return user
    }

    /// Keeps `keeper` (an updater) alive as long as the client.
    package func keep(_ keeper: any Sendable) {
        state.withLock { $0.keepers.append(keeper) }
    }

    // MARK: - Callbacks, once each

    /// Calls the tracking callback unless it was called for this user, experiment and variation already.
    func viewed(_ experiment: GrowthBookExperiment, _ result: ExperimentResult) {
        let key = View(
            hashAttribute: result.hashAttribute,
            attributeValue: JavaScriptSemantics.string(result.attributeValue),
            experiment: experiment.key,
            variation: result.variationId
        )
        let callback = state.withLock { state in
            if state.viewed.count >= Self.rememberedViews { state.viewed = [] }
            return state.viewed.insert(key).inserted ? state.options.onExperimentViewed : nil
        }
        callback?(experiment, result)
    }

    /// Calls the usage callback unless it reported this feature with this value last.
    func used(_ key: String, _ result: FeatureResult) {
        let callback: (@Sendable (String, FeatureResult) -> Void)? = state.withLock { state in
            guard let callback = state.options.onFeatureUsage else { return nil }
            let text = JavaScriptSemantics.stringify(result.value) ?? "null"
            guard state.used[key] != text else { return nil }
            state.used[key] = text
            return callback
        }
        callback?(key, result)
    }

    private static func decode(
        _ data: Data,
        decrypt: ((String) throws -> String)?
    ) throws(GrowthBookError)
        -> GrowthBookPayload
    {
        do {
            return try GrowthBookPayload(data, decrypt: decrypt)
        } catch let invalid as GrowthBookPayload.Invalid {
            throw .invalidPayload(invalid.description, diagnostics: invalid.diagnostics)
        } catch {
            throw .invalidPayload("\(error)", diagnostics: [])
        }
    }
}
