import Foundation
import GrowthBook
import Synchronization

/// A source whose experiments come from a GrowthBook payload (a server or a file).
///
/// Start-up never waits for the network: the source serves the last good
/// payload from the state file at once (or nothing, so the app uses its
/// baselines), and ``update()`` fetches a new one. A failing or malformed fetch
/// keeps the last good payload. An experiment is active on this device exactly
/// when GrowthBook's evaluation puts the device in it, with the attributes
/// given plus the device id as `id`.
///
/// After ``stabilize()`` the source evaluates the payload it had then, so
/// assignments stop changing and new experiments are not exposed; keys listed
/// in a feature `__Override_<experimentKey>` (a JSON array of keys) keep
/// following updates, variation by variation.
public final class GrowthBookSource: TargetedSource, ExplainingSource, SharingSource, FetchingSource, Sendable {
    public let name: String
    private let store: any DeviceStore & PayloadCache
    private let device: Device
    /// The attributes given at start (a connection's).
    private let ownAttributes: [String: String]
    /// The attributes evaluated: those given at start, then the device's as
    /// ``useAttributes(_:)`` last gave them, plus the device id as `id` when none is given.
    private let evaluatedAttributes: Mutex<JSONValue>
    private let fetcher: any PayloadFetcher
    private let decrypt: (@Sendable (String) throws -> String)?
    private let clock: any WallClock
    /// The payload file the fetcher reads, when it reads one.
    public let watchedFile: String?

    private struct Loaded {
        var payload: GrowthBookExperiments?
        var experiments: [Experiment] = []
        var etag: String?
        var fetchedAt: Date?
        /// The payload kept at stabilization, decoded once.
        var stabilized: GrowthBookExperiments?
        /// Why the stored payload was refused at start, until a good one arrives.
        var refusal: String?
        /// The attributes the payload's targeting reads, found on first use.
        var targeting: [String: [String]]?
    }

    /// Attributes as GrowthBook evaluates them: strings, and the device id as `id` unless one is given.
    private static func evaluated(_ attributes: [String: String], device: Device) -> JSONValue {
        var members = attributes.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) }
        if attributes["id"] == nil { members.append(JSONValue.Member("id", .string(device.id))) }
        return .object(members)
    }

    /// The attributes GrowthBook evaluates now.
    private var attributes: JSONValue { evaluatedAttributes.withLock { $0 } }

    /// Takes the device's attributes as they are now, over those given at start.
    public func useAttributes(_ attributes: [String: String]) {
        let merged = ownAttributes.merging(attributes) { _, new in new }
        evaluatedAttributes.withLock { $0 = Self.evaluated(merged, device: device) }
    }

    /// GrowthBook hashes on the device id as `id` when nobody gives one.
    public var defaultAttributes: [String: String] { ["id": device.id] }

    /// The attributes the payload's conditions and hash attributes read, with the experiments that read them.
    public var targetingAttributes: [String: [String]] {
        // Found under the lock, so a payload accepted meanwhile cannot get the last one's.
        loaded.withLock { loaded in
            if let targeting = loaded.targeting { return targeting }
            let targeting = loaded.payload?.targetingAttributes ?? [:]
            loaded.targeting = targeting
            return targeting
        }
    }

    private let loaded = Mutex(Loaded())
    /// How payloads arrive: `polling`, or `streaming` once server-sent events run.
    private let transport = Mutex("polling")

    /// Says how payloads arrive, for the status line.
    public func setTransport(_ name: String) {
        transport.withLock { $0 = name }
    }

    /// A source over the payloads `fetcher` brings, serving the last good
    /// one `store` kept (if it still loads) before any fetch.
    /// - Parameters:
    ///   - name: the source's name, unique among the manager's sources.
    ///   - store: where the last good payload, the sticky buckets and the
    ///     stabilization are kept.
    ///   - device: this device; its id is the `id` attribute unless one is given.
    ///   - attributes: the device's own attributes.
    ///   - fetcher: where ``update()`` fetches the payload.
    ///   - decrypt: turns an `encryptedFeatures` text into JSON, when the payload is encrypted.
    ///   - clock: the time a fetch is stamped with.
    ///   - file: the payload file this source reads, for watchers (``FetchingSource/watchedFile``).
    public init(
        name: String = "GrowthBook",
        store: any DeviceStore & PayloadCache,
        device: Device,
        attributes: [String: String] = [:],
        fetcher: any PayloadFetcher,
        decrypt: (@Sendable (String) throws -> String)? = nil,
        clock: any WallClock = SystemClock(),
        file: String? = nil
    ) {
        self.name = name
        watchedFile = file
        self.store = store
        self.device = device
        ownAttributes = attributes
        evaluatedAttributes = Mutex(Self.evaluated(attributes, device: device))
        self.fetcher = fetcher
        self.decrypt = decrypt
        self.clock = clock
        // The last good payload, if any: served before any fetch. One that no
        // longer loads (a state file from an older release, a damaged row) is
        // refused, never trusted: the app gets its baselines until a good
        // payload arrives, and the status says why.
        guard let stored = try? store.payload(source: name) else { return }
        do {
            let payload = GrowthBookExperiments(try GrowthBookPayload(stored.data, decrypt: decrypt))
            loaded.withLock {
                $0 = Loaded(
                    payload: payload,
                    experiments: payload.all,
                    etag: stored.etag,
                    fetchedAt: stored.fetchedAt
                )
            }
        } catch {
            loaded.withLock {
                $0.refusal =
                    "the stored payload was refused (\(error)); the app uses its baselines until a good one arrives"
            }
        }
    }

    /// Why the stored payload was refused at start, if it was and no good one arrived since.
    public var refusal: String? { loaded.withLock({ $0 }).refusal }

    public var experiments: [Experiment] {
        loaded.withLock({ $0 }).experiments.sorted { $0.name < $1.name }
    }

    public func activeVariants() throws -> [ActiveVariant] {
        let current = loaded.withLock({ $0 })
        guard let latest = current.payload else { return [] }
        let isStabilized = try store.stabilization(source: name) != nil
        var evaluated = latest
        if isStabilized {
            guard let stabilized = try stabilizedExperiments() else { return [] }
            evaluated = stabilized
        }
        let storedSticky = try storedStickyDocuments()
        var evaluator = evaluator(for: evaluated.payload, sticky: storedSticky)
        let before = evaluator.stickyBucketDocs
        var chosen: [String: Int] = [:]
        for (key, _) in evaluated.features {
            let result = evaluator.evaluateFeature(key)
            guard let index = result.ruleIndex,
                let experiment = evaluated.experiment(at: RulePosition(feature: key, index: index))
            else { continue }
            if result.source == .force {
                chosen[experiment.name] = 1  // the RuleValue variant
                continue
            }
            guard result.source == .experiment, let outcome = result.experimentResult, outcome.inExperiment
            else { continue }
            if chosen[experiment.name] == nil { chosen[experiment.name] = outcome.variationId }
        }
        if let docs = evaluator.stickyBucketDocs, docs != before {
            var changed: [String: String] = [:]
            for (key, document) in docs where before?[key] != document {
                changed[key] = JavaScriptSemantics.stringify(document) ?? "{}"
            }
            try store.setStickyBuckets(changed, source: name)
        }
        let definitions = evaluated.all
        let latestDefinitions = Dictionary(
            latest.all.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        return definitions.compactMap { experiment -> ActiveVariant? in
            guard let index = chosen[experiment.name], index < experiment.variants.count else { return nil }
            var variant = experiment.variants[index]
            var served = experiment
            if isStabilized, let fresh = latestDefinitions[experiment.name], index < fresh.variants.count {
                // Keys listed in __Override_<experiment> follow updates even when stabilized.
                for key in followingKeys(for: experiment.name, in: latest) where fresh.keys.contains(key) {
                    variant.assignments[key] = fresh.variants[index].assignments[key]
                }
                served.variants[index] = variant
            }
            return ActiveVariant(source: name, experiment: served, variant: variant, basis: .growthBook)
        }
    }

    /// The keys that follow updates even when the source is stabilized: the
    /// default value (a JSON array, or its text) of the payload's feature
    /// `__Override_<experiment>`, a name payloads already use.
    private func followingKeys(for experiment: String, in experiments: GrowthBookExperiments) -> [String] {
        guard let value = experiments.payload.decodedFeatures["__Override_\(experiment)"]?.defaultValue else {
            return []
        }
        let list: JSONValue? = value.stringValue.flatMap { try? JSONValue.parse($0) } ?? value
        return list?.elements?.compactMap(\.stringValue) ?? []
    }

    /// Takes a payload read by the caller (a local file at start-up).
    /// The payload is checked and evaluated once for this device before it
    /// replaces the last good one, so nothing stored can fail to load later.
    public func accept(_ data: Data, etag: String? = nil) throws {
        let payload = GrowthBookExperiments(try GrowthBookPayload(data, decrypt: decrypt))
        var trial = GrowthBookEvaluator(
            context: payload.payload.context(attributes: attributes)
        )
        for member in payload.payload.features { _ = trial.evaluateFeature(member.key) }
        let now = clock.now()
        try store.setPayload(StoredPayload(data: data, etag: etag, fetchedAt: now), source: name)
        loaded.withLock { loaded in
            loaded = Loaded(
                payload: payload,
                experiments: payload.all,
                etag: etag,
                fetchedAt: now,
                stabilized: loaded.stabilized
            )
        }
    }

    public func update() async throws {
        let etag = loaded.withLock({ $0 }).etag
        switch try await fetcher.fetch(etag: etag) {
        case .notModified:
            return
        case .payload(let data, let newTag):
            try accept(data, etag: newTag)
        }
    }

    public func stabilize() throws {
        if try store.stabilization(source: name) == nil {
            loaded.withLock { $0.stabilized = nil }  // stabilized again after an undo: the new payload
        }
        try store.stabilize(source: name, at: clock.now(), keeping: try store.payload(source: name)?.data)
    }

    public func stabilization() throws -> Date? {
        try store.stabilization(source: name)
    }

    /// The payload kept at stabilization, read and decoded on first use only.
    private func stabilizedExperiments() throws -> GrowthBookExperiments? {
        if let stabilized = loaded.withLock({ $0 }).stabilized { return stabilized }
        guard let stored = try store.stabilizedPayload(source: name),
            let stabilized = (try? GrowthBookPayload(stored, decrypt: decrypt)).map(GrowthBookExperiments.init)
        else { return nil }
        loaded.withLock { $0.stabilized = stabilized }
        return stabilized
    }

    /// The stored sticky bucket documents, by `attribute||value`; a document
    /// that no longer parses is left out (the user is bucketed afresh).
    private func storedStickyDocuments() throws -> JSONValue? {
        let stored = try store.stickyBuckets(source: name)
        guard !stored.isEmpty else { return nil }
        return .object(
            stored.sorted { $0.key < $1.key }.compactMap { key, text in
                (try? JSONValue.parse(text)).map { JSONValue.Member(key, $0) }
            }
        )
    }

    /// An evaluator for this device over `payload`, with its sticky buckets:
    /// they keep a user's variation when weights or coverage change.
    private func evaluator(for payload: GrowthBookPayload, sticky: JSONValue?) -> GrowthBookEvaluator {
        var evaluator = GrowthBookEvaluator(
            context: payload.context(attributes: attributes)
        )
        evaluator.loadStickyBuckets(from: sticky?.members?.map(\.value) ?? [])
        return evaluator
    }

    /// What each experiment stands for in the payload (an experiment rule,
    /// a force or a rollout rule with its value, condition and coverage),
    /// the attributes evaluated, then GrowthBook's evaluation step by step.
    public func decisionSteps(for names: [String]?) -> [String: [Explanation.Step]] {
        guard let payload = loaded.withLock({ $0 }).payload else {
            let none = [Explanation.Step(label: "growthbook", detail: "no payload yet: the app uses its baselines")]
            return Dictionary((names ?? []).map { ($0, none) }, uniquingKeysWith: { first, _ in first })
        }
        let attributesText = (attributes.members ?? []).map { "\($0.key) \(JavaScriptSemantics.string($0.value))" }
            .joined(separator: " · ")
        var result: [String: [Explanation.Step]] = [:]
        for (name, lines) in traces(of: names) {
            var steps = [Explanation.Step(label: "growthbook", detail: Self.describe(name, in: payload))]
            steps.append(Explanation.Step(label: "attributes", detail: attributesText))
            steps += lines.map { Explanation.Step(label: "rule", detail: $0.trimmingCharacters(in: .whitespaces)) }
            result[name] = steps
        }
        return result
    }

    /// An experiment of the payload as what it is: an experiment rule, or a
    /// force or rollout rule with its value, condition and coverage.
    private static func describe(_ name: String, in payload: GrowthBookExperiments) -> String {
        guard let position = payload.ruleExperiments.first(where: { $0.experiment.name == name })?.position,
            let rule = payload.rule(at: position), let forced = rule.forcedValue
        else {
            let features = payload.featuresByExperiment[name] ?? []
            return "an experiment rule in \(features.count == 1 ? "feature" : "features") "
                + features.joined(separator: ", ") + ": variations by weight, hashed on the user"
        }
        let value = JavaScriptSemantics.stringify(forced.value) ?? "null"
        let hashAttribute = GrowthBookHash.attribute(forced.hashAttribute)
        var text: String
        if let coverage = forced.coverage {
            text =
                "a rollout rule of feature \(position.feature): \(value) for "
                + "\(JavaScriptSemantics.numberString(coverage * 100)) % of users by \(hashAttribute)"
        } else if case .rollout = rule.kind {
            let range = forced.range.map {
                "[\(JavaScriptSemantics.numberString($0.lower)),\(JavaScriptSemantics.numberString($0.upper))]"
            }
            text =
                "a rollout rule of feature \(position.feature): \(value) for users by \(hashAttribute) in the range \(range ?? "given, which is not two numbers")"
        } else {
            text = "a force rule of feature \(position.feature): the feature is \(value)"
        }
        // The condition as written in the payload, for a person to recognize.
        if let condition = rule.json["condition"] {
            text += ", when \(JavaScriptSemantics.stringify(condition) ?? "")"
        }
        if !rule.parentConditions.isEmpty { text += ", after its prerequisites" }
        return text
    }

    /// The step-by-step evaluation of several experiments (all by default),
    /// reading the payload and sticky buckets once.
    public func traces(of names: [String]? = nil) -> [String: [String]] {
        guard let payload = loaded.withLock({ $0 }).payload else {
            return Dictionary((names ?? []).map { ($0, ["no payload yet"]) }, uniquingKeysWith: { first, _ in first })
        }
        let sticky = try? storedStickyDocuments()
        var result: [String: [String]] = [:]
        let evaluator = evaluator(for: payload.payload, sticky: sticky)
        for name in names ?? payload.all.map(\.name) {
            var tracing = evaluator
            tracing.trace = []
            for feature in payload.featuresByExperiment[name] ?? [] { _ = tracing.evaluateFeature(feature) }
            result[name] = tracing.trace ?? []
        }
        return result
    }

    /// The latest payload with the forced variants written in (see
    /// ``ForcedRuleRewriter``), for the apps `lab serve` steers: they are
    /// other users, so stabilization, which is this device's, does not apply.
    public func sharedFeatures(forcing forced: [ForcedVariant]) -> SharedFeatures? {
        guard let payload = loaded.withLock({ $0 }).payload else { return nil }
        return ForcedRuleRewriter.rewrite(payload, source: name, forcing: forced, deviceAttributes: attributes)
    }

    public var statusDetail: String? { summary }

    /// The payload in a line: ETag, features and experiment rules, and how it is fetched.
    public var summary: String {
        let current = loaded.withLock({ $0 })
        guard let payload = current.payload else {
            return current.refusal ?? "no payload yet: the app uses its baselines"
        }
        var parts = [
            "\(payload.payload.features.count) features", "\(current.experiments.count) experiments",
            transport.withLock({ $0 }),
        ]
        if let etag = current.etag { parts.insert("etag \(etag)", at: 0) }
        if let fetchedAt = current.fetchedAt {
            parts.append("last good payload \(Int(max(0, min(clock.now().timeIntervalSince(fetchedAt), 1e15)))) s old")
        }
        let warnings = payload.payload.warnings
        if let first = warnings.first {
            parts.append(
                "\(warnings.count) warning\(warnings.count == 1 ? "" : "s") (\(first.message)"
                    + (warnings.count > 1 ? "; lab check --growthbook lists them all)" : ")")
            )
        }
        let gaveUp = BoundedRegex.patternsThatGaveUp
        if let first = gaveUp.first {
            parts.append(
                "\(gaveUp.count) $regex condition(s) took too long and count as false (\(first.prefix(40)))"
            )
        }
        return parts.joined(separator: " · ")
    }
}
