/// Evaluates GrowthBook features and experiments for one context, following
/// the JavaScript SDK's steps (its conformance cases check each of them).
/// A contextual-bandit rule runs as an experiment whose weights come from
/// the first leaf of its bandit whose condition the user meets (the rule's
/// marginal weights, leaf -1, when none does).
public struct GrowthBookEvaluator: Sendable {
    public var context: GrowthBookContext {
        didSet { banditLeaves = [:] }
    }
    /// Sticky bucket documents by `attribute||value`; `nil` turns sticky
    /// bucketing off. Running experiments adds to them; the caller stores them.
    var stickyDocuments: [String: StickyBucketDocument]?
    /// When not `nil`, each step of the evaluation is written here, for `lab explain`.
    public var trace: [String]?

    private mutating func note(_ line: @autoclosure () -> String) {
        if trace != nil { trace?.append(line()) }
    }

    public init(context: GrowthBookContext, stickyBucketDocs: [String: JSONValue]? = nil) {
        self.context = context
        self.stickyBucketDocs = stickyBucketDocs
    }

    /// The sticky bucket documents in GrowthBook's JSON shape, by `attribute||value`.
    public var stickyBucketDocs: [String: JSONValue]? {
        get { stickyDocuments?.mapValues(\.json) }
        set { stickyDocuments = newValue?.compactMapValues(StickyBucketDocument.init(json:)) }
    }

    /// Turns sticky bucketing on with the stored documents that belong to this
    /// user: those of the attributes the features hash on, at their current values.
    public mutating func loadStickyBuckets(from documents: [JSONValue]) {
        var attributes: Set<String> = []
        for feature in context.features.values {
            for rule in feature["rules"]?.elements ?? [] where Self.variations(of: rule) != nil {
                attributes.insert(rule["hashAttribute"]?.stringValue ?? "id")
                if let fallback = rule["fallbackAttribute"]?.stringValue { attributes.insert(fallback) }
            }
        }
        var wanted: [String: String] = [:]
        for attribute in attributes {
            wanted[attribute] = JavaScriptSemantics.string(hashAttribute(attribute, fallback: nil).1 ?? .string(""))
        }
        var docs: [String: StickyBucketDocument] = [:]
        for json in documents {
            guard let document = StickyBucketDocument(json: json),
                wanted[document.attributeName] == document.attributeValue
            else { continue }
            let key = "\(document.attributeName)||\(document.attributeValue)"
            if docs[key] == nil { docs[key] = document }
        }
        stickyDocuments = docs
    }

    // MARK: - Features

    /// How deep a chain of prerequisites may go; deeper counts as a cycle.
    public static let maximumPrerequisiteDepth = 64
    /// How many features one evaluation may evaluate, prerequisites included;
    /// past it the rest count as a cycle. Results are memoized, so only a
    /// payload whose prerequisites loop back and fan out comes near it.
    public static let maximumFeatureEvaluations = 10_000

    /// Bookkeeping of one top-level evaluation.
    private var memo: [String: FeatureResult] = [:]
    /// The leaf each bandit chose for this context (`nil`: none matched):
    /// a payload may hold a bandit of thousands of leaves that a thousand
    /// rules refer to, and the leaf depends on the context alone.
    private var banditLeaves: [String: JSONValue?] = [:]
    private var evaluationCount = 0
    /// Counts cycles (and limits) met; a result computed while one was met
    /// depends on the path that led to it, so it is not memoized.
    private var cyclesMet = 0

    /// The value of a feature for this context, and why.
    public mutating func evaluateFeature(_ id: String) -> FeatureResult {
        memo = [:]
        evaluationCount = 0
        var seen: Set<String> = []
        return evaluateFeature(id, seen: &seen)
    }

    private mutating func evaluateFeature(_ id: String, seen: inout Set<String>) -> FeatureResult {
        if let known = memo[id] { return known }
        evaluationCount += 1
        if seen.contains(id) || seen.count >= Self.maximumPrerequisiteDepth
            || evaluationCount > Self.maximumFeatureEvaluations
        {
            if !seen.contains(id) { note("  \(id): prerequisites too deep or too many: treated as a cycle") }
            cyclesMet += 1
            return FeatureResult(value: .null, source: .cyclicPrerequisite, ruleId: "")
        }
        let cyclesBefore = cyclesMet
        let result = evaluateRules(of: id, seen: &seen)
        if cyclesMet == cyclesBefore { memo[id] = result }
        return result
    }

    private mutating func evaluateRules(of id: String, seen: inout Set<String>) -> FeatureResult {
        seen.insert(id)
        guard let feature = context.features[id] else {
            return FeatureResult(value: .null, source: .unknownFeature, ruleId: "")
        }
        rules: for (ruleIndex, rule) in (feature["rules"]?.elements ?? []).enumerated() {
            note(
                "\(id) rule \(ruleIndex + 1): "
                    + (rule["force"] != nil
                        ? "force \(JavaScriptSemantics.stringify(rule["force"]) ?? "")"
                        : "experiment \(rule["key"]?.stringValue ?? id)")
            )
            for parent in rule["parentConditions"]?.elements ?? [] {
                var branch = seen
                let parentResult = evaluateFeature(parent["id"]?.stringValue ?? "", seen: &branch)
                if parentResult.source == .cyclicPrerequisite {
                    return FeatureResult(value: .null, source: .cyclicPrerequisite, ruleId: "")
                }
                let passed = ConditionEvaluator.evaluate(
                    parent["condition"] ?? .object([]),
                    attributes: .object([.init("value", parentResult.value)]),
                    savedGroups: context.savedGroups
                )
                if !passed {
                    if JavaScriptSemantics.truthy(parent["gate"]) {
                        return FeatureResult(value: .null, source: .prerequisite, ruleId: "")
                    }
                    continue rules
                }
            }
            if let filters = rule["filters"], isFilteredOut(filters) {
                note("  filtered out (mutual exclusion)")
                continue
            }
            let ruleId = rule["id"]?.stringValue ?? ""
            if let force = rule["force"] {
                if let condition = rule["condition"], !conditionPasses(condition) {
                    note("  condition \(JavaScriptSemantics.stringify(condition) ?? "") is false: skipped")
                    continue
                }
                let seed = rule["seed"]?.stringValue ?? id
                if !isIncludedInRollout(
                    seed: seed,
                    hashAttribute: rule["hashAttribute"]?.stringValue,
                    fallbackAttribute: rule["fallbackAttribute"]?.stringValue,
                    range: rule["range"],
                    coverage: rule["coverage"]?.numberValue,
                    hashVersion: rule["hashVersion"]
                ) {
                    note("  not in the rollout (coverage \(rule["coverage"]?.numberValue.map { String($0) } ?? "-"))")
                    continue
                }
                note("  applies: the feature is \(JavaScriptSemantics.stringify(force) ?? "")")
                var result = FeatureResult(value: force, source: .force, ruleId: ruleId)
                result.ruleIndex = ruleIndex
                return result
            }
            guard let variations = Self.variations(of: rule) else { continue }
            var experiment = experimentFromRule(rule, variations: variations, feature: id)
            let bandit = rule["contextualBanditRef"]?.stringValue.flatMap { route(&experiment, bandit: $0, rule: rule) }
            var branch = seen
            var result = runExperiment(.object(experiment), featureId: id, seen: &branch)
            // The bandit's details belong to users bucketed by hash, not to forced ones.
            if let bandit, result.hashUsed, result.inExperiment {
                experiment.append(.init("contextualBandit", .object(bandit)))
                result.extras = bandit
            }
            if result.inExperiment && result.passthrough != true {
                note(
                    "  decides: variation \(result.variationId) = \(JavaScriptSemantics.stringify(result.value) ?? "")"
                )
                var decided = FeatureResult(
                    value: result.value,
                    source: .experiment,
                    ruleId: ruleId,
                    experiment: .object(experiment),
                    experimentResult: result
                )
                decided.ruleIndex = ruleIndex
                return decided
            }
        }
        return FeatureResult(value: feature["defaultValue"] ?? .null, source: .defaultValue, ruleId: "")
    }

    /// An experiment rule's variations: bandit rules keep theirs under
    /// `contextualVariations`, so SDKs without bandits skip them.
    private static func variations(of rule: JSONValue) -> JSONValue? {
        guard let variations = rule["contextualVariations"] ?? rule["variations"], variations.elements != nil else {
            return nil
        }
        return variations
    }

    /// Weights a contextual-bandit rule's experiment as the JavaScript SDK
    /// does: by the first leaf of its bandit whose condition the user meets,
    /// or by the rule's own (marginal) weights as leaf -1 when none does.
    /// - Returns: the details a hashed result carries (`leafId`,
    ///   `variationWeights`, `banditVersion`), or `nil` when the bandit is not
    ///   in the payload (the rule then runs on its marginal weights, without them).
    private mutating func route(
        _ experiment: inout [JSONValue.Member],
        bandit reference: String,
        rule: JSONValue
    ) -> [JSONValue.Member]? {
        guard let bandit = context.contextualBandits[reference] else {
            note("  bandit \(reference) is not in the payload; marginal weights")
            return nil
        }
        let count = Self.variations(of: rule)?.elements?.count ?? 0
        var weights = rule["weights"] ?? .array(BucketMath.equalWeights(count).map(JSONValue.number))
        let leaf = leaf(of: bandit, reference: reference)
        if let leaf {
            weights = leaf["weights"] ?? .array([])
            experiment.removeAll { $0.key == "weights" }
            experiment.append(.init("weights", weights))
            note("  bandit \(reference): leaf \(JavaScriptSemantics.stringify(leaf["leafId"] ?? .null) ?? "")")
        } else {
            note("  bandit \(reference): no leaf matches; marginal weights (leaf -1)")
        }
        var details: [JSONValue.Member] = [
            .init("leafId", leaf?["leafId"] ?? .number(-1)), .init("variationWeights", weights),
        ]
        if let version = bandit["banditVersion"] { details.append(.init("banditVersion", version)) }
        return details
    }

    /// The first leaf of `bandit` whose condition this context meets, found once per context.
    private mutating func leaf(of bandit: JSONValue, reference: String) -> JSONValue? {
        if let known = banditLeaves[reference] { return known }
        let leaf = (bandit["contexts"]?.elements ?? []).first { conditionPasses($0["condition"] ?? .object([])) }
        banditLeaves[reference] = .some(leaf)
        return leaf
    }

    /// The experiment an experiment rule runs, with only the keys the rule sets.
    private func experimentFromRule(_ rule: JSONValue, variations: JSONValue, feature: String) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = [
            .init("variations", variations),
            .init("key", rule["key"] ?? .string(feature)),
        ]
        for key in [
            "coverage", "weights", "hashAttribute", "fallbackAttribute", "disableStickyBucketing",
            "bucketVersion", "minBucketVersion", "namespace", "meta", "ranges", "name", "phase", "seed",
            "hashVersion", "filters", "condition",
        ] {
            if let value = rule[key] { members.append(.init(key, value)) }
        }
        return members
    }

    // MARK: - Experiments

    /// Runs an experiment (GrowthBook's JSON shape) for this context.
    public mutating func run(_ experiment: JSONValue, featureId: String? = nil) -> ExperimentResult {
        memo = [:]
        evaluationCount = 0
        var seen: Set<String> = []
        return runExperiment(experiment, featureId: featureId, seen: &seen)
    }

    private mutating func runExperiment(
        _ experiment: JSONValue,
        featureId: String?,
        seen: inout Set<String>
    ) -> ExperimentResult {
        let key = experiment["key"]?.stringValue ?? ""
        let count = experiment["variations"]?.elements?.count ?? 0
        func result(
            _ index: Int,
            hashUsed: Bool = false,
            bucket: Double? = nil,
            sticky: Bool = false
        ) -> ExperimentResult {
            makeResult(
                experiment,
                index: index,
                hashUsed: hashUsed,
                featureId: featureId,
                bucket: bucket,
                sticky: sticky
            )
        }
        if count < 2 || !context.enabled { return result(-1) }
        if let forced = queryStringOverride(key, variations: count) { return result(forced) }
        if let forced = context.forcedVariations[key] { return result(forced) }
        if experiment["status"]?.stringValue == "draft" || experiment["active"] == .bool(false) { return result(-1) }
        let (_, hashValue) = hashAttribute(
            experiment["hashAttribute"]?.stringValue,
            fallback: experiment["fallbackAttribute"]?.stringValue
        )
        guard let hashValue else {
            note("  no value for the hash attribute: not in the experiment")
            return result(-1)
        }
        note(
            "  hash attribute \(experiment["hashAttribute"]?.stringValue ?? "id") = \(JavaScriptSemantics.string(hashValue))"
        )
        let sticky = stickyDocuments != nil && !JavaScriptSemantics.truthy(experiment["disableStickyBucketing"])
        let stored = sticky ? stickyVariation(experiment) : (variation: -1, blocked: false)
        let foundSticky = stored.variation >= 0
        if foundSticky { note("  sticky bucket: variation \(stored.variation)") }
        if !foundSticky, targetingFails(experiment, hashValue: hashValue, seen: &seen) { return result(-1) }
        guard
            let bucket = GrowthBookHash.hash(
                seed: experiment["seed"]?.stringValue ?? key,
                value: JavaScriptSemantics.string(hashValue),
                version: JavaScriptSemantics.hashVersion(experiment["hashVersion"], fallback: 1)
            )
        else { return result(-1) }
        var assigned = stored.variation
        if !foundSticky {
            let ranges =
                experiment["ranges"]?.elements.map { pairs in
                    pairs.map { pair -> HalfOpenRange in
                        let bounds = pair.elements ?? []
                        return HalfOpenRange(
                            lower: bounds.first?.numberValue ?? 0,
                            upper: bounds.last?.numberValue ?? 0
                        )
                    }
                }
                ?? BucketMath.bucketRanges(
                    count: count,
                    coverage: experiment["coverage"]?.numberValue ?? 1,
                    weights: experiment["weights"]?.elements?.compactMap(\.numberValue)
                )
            assigned = BucketMath.chooseVariation(bucket, ranges: ranges) ?? -1
            note(
                "  bucket \(bucket) (hash v\(JavaScriptSemantics.hashVersion(experiment["hashVersion"], fallback: 1)), seed \(experiment["seed"]?.stringValue ?? key)); ranges "
                    + ranges.map(\.description).joined(separator: " ")
                    + " (coverage \(experiment["coverage"]?.numberValue ?? 1)): "
                    + (assigned >= 0 ? "variation \(assigned)" : "in no range, so not in the experiment")
            )
        }
        // A user with a sticky bucket from a blocked version leaves the experiment.
        if stored.blocked { return result(-1, sticky: true) }
        guard assigned >= 0 else { return result(-1) }
        if let force = experiment["force"] { return result(JavaScriptSemantics.integer(force.numberValue) ?? -1) }
        if context.qaMode || experiment["status"]?.stringValue == "stopped" { return result(-1) }
        let final = result(assigned, hashUsed: true, bucket: bucket, sticky: foundSticky)
        if sticky { persistStickyBucket(experiment, result: final) }
        return final
    }

    /// Filters or namespace, condition and prerequisites: whether they exclude the user.
    private mutating func targetingFails(_ experiment: JSONValue, hashValue: JSONValue, seen: inout Set<String>) -> Bool
    {
        if let filters = experiment["filters"] {
            if isFilteredOut(filters) {
                note("  filtered out (mutual exclusion)")
                return true
            }
        } else if let namespace = experiment["namespace"]?.elements, namespace.count == 3,
            !BucketMath.inNamespace(
                JavaScriptSemantics.string(hashValue),
                namespace: BucketMath.Namespace(
                    id: JavaScriptSemantics.string(namespace[0]),
                    start: namespace[1].numberValue ?? 0,
                    end: namespace[2].numberValue ?? 0
                )
            )
        {
            note("  outside namespace \(JavaScriptSemantics.stringify(experiment["namespace"]) ?? "")")
            return true
        }
        if experiment["namespace"] != nil && experiment["filters"] == nil {
            note("  inside namespace \(JavaScriptSemantics.stringify(experiment["namespace"]) ?? "")")
        }
        if let condition = experiment["condition"] {
            let passes = conditionPasses(condition)
            note("  condition \(JavaScriptSemantics.stringify(condition) ?? "") is \(passes)")
            if !passes { return true }
        }
        for parent in experiment["parentConditions"]?.elements ?? [] {
            var branch = seen
            let parentResult = evaluateFeature(parent["id"]?.stringValue ?? "", seen: &branch)
            if parentResult.source == .cyclicPrerequisite { return true }
            let passed = ConditionEvaluator.evaluate(
                parent["condition"] ?? .object([]),
                attributes: .object([.init("value", parentResult.value)]),
                savedGroups: context.savedGroups
            )
            if !passed { return true }
        }
        return false
    }

    // MARK: - Sticky buckets

    /// The variation a stored sticky bucket gives, or -1; blocked when the user
    /// holds a bucket of a version below the experiment's minimum.
    private func stickyVariation(_ experiment: JSONValue) -> (variation: Int, blocked: Bool) {
        let key = experiment["key"]?.stringValue ?? ""
        let documents = stickyDocumentsFor(
            experiment["hashAttribute"]?.stringValue,
            fallback: experiment["fallbackAttribute"]?.stringValue
        )
        let minimum = experiment["minBucketVersion"]?.numberValue ?? 0
        if documents.contains(where: { $0.holdsBlockedVersion(of: key, below: minimum) }) { return (-1, true) }
        let stickyKey = StickyBucketDocument.key(experiment: key, version: experiment["bucketVersion"])
        // The hash attribute's document wins over the fallback's.
        guard let variationKey = documents.lazy.compactMap({ $0[stickyKey] }).first else { return (-1, false) }
        let meta = experiment["meta"]?.elements ?? []
        guard let index = meta.firstIndex(where: { $0["key"]?.stringValue == variationKey }) else { return (-1, false) }
        return (index, false)
    }

    /// The stored documents of the user's hash attribute, then of its fallback.
    private func stickyDocumentsFor(_ attribute: String?, fallback: String?) -> [StickyBucketDocument] {
        guard let docs = stickyDocuments else { return [] }
        let (name, value) = hashAttribute(attribute, fallback: nil)
        let (fallbackName, fallbackValue) = hashAttribute(fallback, fallback: nil)
        var result: [StickyBucketDocument] = []
        if let document = docs["\(name)||\(JavaScriptSemantics.string(value ?? .string("")))"] {
            result.append(document)
        }
        if let fallbackValue, let document = docs["\(fallbackName)||\(JavaScriptSemantics.string(fallbackValue))"] {
            result.append(document)
        }
        return result
    }

    /// Records the user's variation in the document of its hash attribute.
    private mutating func persistStickyBucket(_ experiment: JSONValue, result: ExperimentResult) {
        let attributeValue = JavaScriptSemantics.string(result.attributeValue)
        let key = "\(result.hashAttribute)||\(attributeValue)"
        let stickyKey = StickyBucketDocument.key(
            experiment: experiment["key"]?.stringValue ?? "",
            version: experiment["bucketVersion"]
        )
        var document =
            stickyDocuments?.removeValue(forKey: key)
            ?? StickyBucketDocument(attributeName: result.hashAttribute, attributeValue: attributeValue)
        document.set(stickyKey, result.key)
        stickyDocuments?[key] = document
    }

    private func makeResult(
        _ experiment: JSONValue,
        index: Int,
        hashUsed: Bool,
        featureId: String?,
        bucket: Double?,
        sticky: Bool
    ) -> ExperimentResult {
        let variations = experiment["variations"]?.elements ?? []
        var index = index
        var inExperiment = true
        if index < 0 || index >= variations.count {
            index = 0
            inExperiment = false
        }
        let (attribute, hashValue) = hashAttribute(
            experiment["hashAttribute"]?.stringValue,
            fallback: experiment["fallbackAttribute"]?.stringValue
        )
        let meta = experiment["meta"]?.elements.flatMap { index < $0.count ? $0[index] : nil }
        let metaKey = meta?["key"].map { JavaScriptSemantics.string($0) }
        return ExperimentResult(
            key: (metaKey?.isEmpty == false ? metaKey : nil) ?? String(index),
            featureId: featureId,
            inExperiment: inExperiment,
            hashUsed: hashUsed,
            variationId: index,
            value: variations.isEmpty ? .null : variations[index],
            hashAttribute: attribute,
            attributeValue: hashValue ?? .string(""),
            stickyBucketUsed: sticky,
            bucket: bucket,
            name: meta?["name"]?.stringValue,
            passthrough: meta?["passthrough"]?.boolValue
        )
    }

    // MARK: - Pieces

    /// The attribute that identifies the user, and its value when truthy.
    private func hashAttribute(_ name: String?, fallback: String?) -> (String, JSONValue?) {
        var attribute = name ?? "id"
        var value = context.attributes[attribute].flatMap { JavaScriptSemantics.truthy($0) ? $0 : nil }
        if value == nil, let fallback, let fallbackValue = context.attributes[fallback],
            JavaScriptSemantics.truthy(fallbackValue)
        {
            value = fallbackValue
            attribute = fallback
        }
        return (attribute, value)
    }

    private func conditionPasses(_ condition: JSONValue) -> Bool {
        ConditionEvaluator.evaluate(condition, attributes: context.attributes, savedGroups: context.savedGroups)
    }

    /// Whether the user falls outside every range of any filter (mutual exclusion).
    private func isFilteredOut(_ filters: JSONValue) -> Bool {
        (filters.elements ?? []).contains { filter in
            let (_, value) = hashAttribute(filter["attribute"]?.stringValue, fallback: nil)
            guard let value,
                let hash = GrowthBookHash.hash(
                    seed: filter["seed"]?.stringValue ?? "",
                    value: JavaScriptSemantics.string(value),
                    version: JavaScriptSemantics.hashVersion(filter["hashVersion"], fallback: 2)
                )
            else { return true }
            return !(filter["ranges"]?.elements ?? []).contains { range in
                let bounds = (range.elements ?? []).compactMap(\.numberValue)
                return bounds.count == 2 && hash >= bounds[0] && hash < bounds[1]
            }
        }
    }

    private func isIncludedInRollout(
        seed: String,
        hashAttribute name: String?,
        fallbackAttribute: String?,
        range: JSONValue?,
        coverage: Double?,
        hashVersion: JSONValue?
    ) -> Bool {
        if range == nil && coverage == nil { return true }
        if range == nil && coverage == 0 { return false }
        let (_, value) = hashAttribute(name, fallback: fallbackAttribute)
        guard let value,
            let hash = GrowthBookHash.hash(
                seed: seed,
                value: JavaScriptSemantics.string(value),
                version: JavaScriptSemantics.hashVersion(hashVersion, fallback: 1)
            )
        else { return false }
        if let bounds = range?.elements?.compactMap(\.numberValue), bounds.count == 2 {
            return hash >= bounds[0] && hash < bounds[1]
        }
        return coverage.map { hash <= $0 } ?? true
    }

    /// `?key=N` in the context's URL forces variation N.
    private func queryStringOverride(_ key: String, variations: Int) -> Int? {
        guard let url = context.url, let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else {
            return nil
        }
        let search = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for pair in search.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == key else { continue }
            let digits = parts[1].prefix { $0.isNumber || $0 == "-" }
            guard let value = Int(digits), value >= 0, value < variations else { return nil }
            return value
        }
        return nil
    }
}
