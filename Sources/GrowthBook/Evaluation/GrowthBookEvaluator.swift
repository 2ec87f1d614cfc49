/// Evaluates GrowthBook features and experiments for one context, following
/// the JavaScript SDK's steps (its conformance cases check each of them).
/// A contextual-bandit rule runs as an experiment whose weights come from
/// the first leaf of its bandit whose condition the user meets (the rule's
/// marginal weights, leaf -1, when none does).
public struct GrowthBookEvaluator: Sendable {
    /// What features are evaluated against: attributes, payload, overrides.
    public var context: GrowthBookContext {
        didSet {
            banditLeaves = [:]
            hashedAttributes = []
            subjectsBySlot = []
            spareSubject = -1
        }
    }
    /// Sticky bucket documents by `attribute||value`; `nil` turns sticky
    /// bucketing off. Running experiments adds to them; the caller stores them.
    var stickyDocuments: [String: StickyBucketDocument]?
    /// When not `nil`, each step of the evaluation is written here, for a person asking why.
    public var trace: [String]?
    /// Called when a user is bucketed into an experiment, once per
    /// experiment, variation and user (GrowthBook's tracking callback).
    public var onExperimentViewed: (@Sendable (_ experiment: GrowthBookExperiment, _ result: ExperimentResult) -> Void)?
    /// The experiment part of the last result an experiment decided, filled
    /// again by the next one once the caller has let go of it.
    private var spareExperimentPart: DecidingExperiment?
    /// Whom the spare part's experiment hashed, a position in
    /// ``hashedAttributes`` (-1 once they are found again): a refill for the
    /// same one (almost every rule hashes `id`) leaves the attribute's name
    /// and value as they are, where setting them counted their references.
    private var spareSubject = -1
    /// What was tracked already: hash attribute, value, experiment and variation.
    private var trackedExperiments: Set<String> = []
    /// Where changed sticky bucket documents are saved, when one was given.
    private var stickyBucketService: (any StickyBucketService)?

    private mutating func note(_ line: @autoclosure () -> String) {
        if trace != nil { trace?.append(line()) }
    }

    /// An evaluator for `context`; `stickyBucketDocs`, by `attribute||value`, turn sticky bucketing on.
    public init(context: GrowthBookContext, stickyBucketDocs: [String: JSONValue]? = nil) {
        self.context = context
        self.stickyBucketDocs = stickyBucketDocs
    }

    /// The sticky bucket documents in GrowthBook's JSON shape, by `attribute||value`.
    public var stickyBucketDocs: [String: JSONValue]? {
        get { stickyDocuments?.mapValues(\.json) }
        set { stickyDocuments = newValue?.compactMapValues(StickyBucketDocument.init(json:)) }
    }

    /// Turns sticky bucketing on with the documents a service keeps for this
    /// user, and saves every document a run changes back to it.
    public mutating func useStickyBuckets(_ service: any StickyBucketService) {
        let documents = stickyBucketIdentifiers().compactMap { name, value in
            service.assignments(attributeName: name, attributeValue: value)
        }
        loadStickyBuckets(from: documents)
        stickyBucketService = service
    }

    /// The attributes the features hash on, with this user's values: what
    /// sticky documents are kept under (load these before evaluating).
    public func stickyBucketIdentifiers() -> [String: String] {
        var attributes: Set<String> = []
        for feature in context.features.values {
            for rule in feature.rules {
                guard let experiment = rule.experiment else { continue }
                // A fallback only when it is named.
                attributes.insert(GrowthBookHash.attribute(experiment.hashAttribute))
                if let fallback = experiment.fallbackAttribute, !fallback.isEmpty { attributes.insert(fallback) }
            }
        }
        var values: [String: String] = [:]
        for attribute in attributes {
            values[attribute] = JavaScriptSemantics.string(truthyAttribute(attribute).value ?? .string(""))
        }
        return values
    }

    /// Turns sticky bucketing on with the stored documents that belong to this
    /// user: those of the attributes the features hash on, at their current values.
    public mutating func loadStickyBuckets(from documents: [JSONValue]) {
        let wanted = stickyBucketIdentifiers()
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
    private var banditLeaves: [String: ContextualBandit.Leaf?] = [:]
    /// The attributes rules hashed this context by, each with its truthy
    /// value and that value as hashing reads it: found and printed once,
    /// not once per rule (almost every rule hashes `id`).
    private var hashedAttributes: [HashedAttribute] = []
    /// Positions in ``hashedAttributes`` by the attribute's slot
    /// (``AttributeSlots``; -1 for none yet), so that a rule finds whom it
    /// hashes by its slot: by name, comparing names and counting references
    /// to them took an experiment about 60 instructions.
    private var subjectsBySlot: [Int32] = []
    private var evaluationCount = 0
    /// Counts cycles (and limits) met; a result computed while one was met
    /// depends on the path that led to it, so it is not memoized.
    private var cyclesMet = 0

    /// The value of a feature for this context, and why.
    ///
    /// A feature without prerequisites is evaluated without the bookkeeping
    /// that cuts cycles short, so evaluating it allocates nothing unless an
    /// experiment runs.
    public mutating func evaluateFeature(_ id: String) -> FeatureResult {
        if !context.forcedFeatures.isEmpty, let forced = context.forcedFeatures[id] {
            return FeatureResult(value: forced, source: .override, ruleId: "", ruleIndex: nil)
        }
        guard let feature = context.features.unretainedFeature(id) else {
            return FeatureResult(value: .null, source: .unknownFeature, ruleId: "", ruleIndex: nil)
        }
        // The context holds its features for the whole evaluation: no reference is counted.
        return feature.with { feature in evaluateFeature(id, found: feature) }
    }

    /// The feature `id`, found already (`feature`), for a context that
    /// forces no value on it. Inlined: called, it took 40 more instructions
    /// an evaluation of a rollout or an experiment.
    @inline(__always)
    mutating func evaluateFeature(_ id: String, found feature: GrowthBookFeature) -> FeatureResult {
        // A plain feature's walk is the same read-only one the front door runs without a turn; a trace wants the steps.
        if feature.isPlain, trace == nil {
            return Self.plainResult(of: feature, attributes: context.attributeTable, groups: context.savedGroups)
        }
        if feature.rules.isEmpty {
            return FeatureResult(value: feature.defaultValue, source: .defaultValue, ruleId: "", ruleIndex: nil)
        }
        var seen: Set<String> = []
        if !feature.hasPrerequisites { return evaluateRules(of: feature, id: id, seen: &seen) }
        memo = [:]
        evaluationCount = 0
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
            return FeatureResult(value: .null, source: .cyclicPrerequisite, ruleId: "", ruleIndex: nil)
        }
        if !context.forcedFeatures.isEmpty, let forced = context.forcedFeatures[id] {
            return FeatureResult(value: forced, source: .override, ruleId: "", ruleIndex: nil)
        }
        guard let feature = context.features[id] else {
            return FeatureResult(value: .null, source: .unknownFeature, ruleId: "", ruleIndex: nil)
        }
        let cyclesBefore = cyclesMet
        let result = evaluateRules(of: feature, id: id, seen: &seen)
        if cyclesMet == cyclesBefore { memo[id] = result }
        return result
    }

    // Called, not inlined: each of its returns then builds the result in the
    // caller's place once (inlined, the returns met in a copy of the result).
    @inline(never)
    private mutating func evaluateRules(
        of feature: GrowthBookFeature,
        id: String,
        seen: inout Set<String>
    ) -> FeatureResult {
        // Only a feature that leads to others needs to be known on the path.
        if feature.hasPrerequisites { seen.insert(id) }
        let rules = feature.rules
        for ruleIndex in rules.indices {
            // The feature holds its rules: each is read without counting a reference (`Unretained`).
            let rule = Unretained(rules[ruleIndex])
            if let result = rule.with({ rule in self.apply(rule, at: ruleIndex, id: id, seen: &seen) }) {
                return result
            }
        }
        return FeatureResult(value: feature.defaultValue, source: .defaultValue, ruleId: "", ruleIndex: nil)
    }

    /// What a plain feature (``GrowthBookFeature/isPlain``) decides for a
    /// context's `attributes` and saved `groups`: the first force rule whose
    /// condition holds, or the default. It reads nothing an evaluator keeps,
    /// so the front door runs it without taking its user's turn, from any
    /// number of threads. It takes only what it reads: given the whole
    /// context, the evaluator copied it for the call (a tenth of a force
    /// rule's instructions went to `memcpy`). Always inlined, into the
    /// evaluator's walk and into the front door's function for it
    /// (`UserEvaluator`), which called it out of line otherwise, with its
    /// result made in a slot of its own and copied out (64 bytes, read just
    /// after they were written).
    @inline(__always)
    static func plainResult(
        of feature: GrowthBookFeature,
        attributes: AttributeTable,
        groups: [String: [JSONValue]]
    ) -> FeatureResult {
        // Force rules alone: the walk without a rollout's test, which cost a force rule 15 instructions.
        firstForcedResult(of: feature, attributes: attributes, groups: groups) { _ in true }
    }

    /// What a turn-free feature (``GrowthBookFeature/isTurnFree``) decides:
    /// as ``plainResult(of:attributes:groups:)``, where a rollout reaches
    /// the users its hash takes in. It hashes one of `subjects`, the
    /// attributes the feature table's rollouts hash
    /// (``FeatureTable/rolloutAttributes``), found and hashed once per user.
    static func turnFreeResult(
        of feature: GrowthBookFeature,
        attributes: AttributeTable,
        groups: [String: [JSONValue]],
        subjects: [HashedAttribute]
    ) -> FeatureResult {
        firstForcedResult(of: feature, attributes: attributes, groups: groups) { forced in
            forced.reaches { rolloutHash(of: forced, subjects: subjects, attributes: attributes) }
        }
    }

    /// The first force or rollout rule whose condition holds and whose value
    /// `reaches` the user, or the default: the walk of plain and turn-free
    /// features, made for each of them (inlined into both).
    @inline(__always)
    private static func firstForcedResult(
        of feature: GrowthBookFeature,
        attributes: AttributeTable,
        groups: [String: [JSONValue]],
        reaches: (ForcedValue) -> Bool
    ) -> FeatureResult {
        let rules = feature.rules
        for ruleIndex in rules.indices {
            // The feature holds its rules and their values: read without counting references (`Unretained`).
            let rule = Unretained(rules[ruleIndex])
            let result: FeatureResult? = rule.with { rule in
                guard let forced = rule.unretainedForcedValue,
                    forced.with({ $0.conditionHolds(for: attributes, groups: groups) && reaches($0) })
                else { return nil }
                return forcedResult(forced, of: rule, at: ruleIndex)
            }
            if let result { return result }
        }
        return FeatureResult(value: feature.defaultValue, source: .defaultValue, ruleId: "", ruleIndex: nil)
    }

    /// The hash a rollout without a fallback gives the user: of the subject
    /// it names among `subjects`, or of the attribute found now when none does.
    /// Called, not inlined: inlined, it made the walk too large for the
    /// compiler to inline the condition's test into it.
    @inline(never)
    private static func rolloutHash(
        of rollout: ForcedValue,
        subjects: [HashedAttribute],
        attributes: AttributeTable
    ) -> Double? {
        // By slot, where both have one: by name, the name was copied and compared.
        let slot = rollout.hashSlot
        if slot >= 0, let index = subjects.firstIndex(where: { $0.slot == slot }) {
            return subjects[index].hash(seed: rollout.hashSeed, version: rollout.hashVersion)
        }
        let name = GrowthBookHash.attribute(rollout.hashAttribute)
        guard let index = subjects.firstIndex(where: { $0.name == name }) else {
            return HashedAttribute(name, in: attributes).hash(seed: rollout.hashSeed, version: rollout.hashVersion)
        }
        return subjects[index].hash(seed: rollout.hashSeed, version: rollout.hashVersion)
    }

    /// The result of a force or rollout rule whose value reaches the user:
    /// one for the general walk and the plain and turn-free ones.
    @inline(__always)
    private static func forcedResult(
        _ forced: Unretained<ForcedValue>,
        of rule: FeatureRule,
        at ruleIndex: Int
    ) -> FeatureResult {
        // A closure, not the key path `\.value`: read through a key path, the
        // value was checked for exclusive access at run time (`swift_beginAccess`),
        // 82 instructions a force rule in a build without `-Ounchecked`.
        FeatureResult(value: forced.with { $0.value }, source: .force, ruleId: rule.id, ruleIndex: ruleIndex)
    }

    /// What one rule decides for this user: a result, or `nil` when the walk goes on to the next rule.
    @inline(__always)
    private mutating func apply(
        _ rule: FeatureRule,
        at ruleIndex: Int,
        id: String,
        seen: inout Set<String>
    ) -> FeatureResult? {
        if trace != nil { note("\(id) rule \(ruleIndex + 1): " + Self.describe(rule, feature: id)) }
        // Most rules have neither prerequisites nor filters: flags, not their lists, say so.
        if rule.hasParentConditions {
            switch prerequisites(of: rule, seen: seen) {
            case .hold: break
            case .skipRule: return nil
            case .stop(let result): return result
            }
        }
        if rule.hasFilters, let filters = rule.filters, isFilteredOut(filters) {
            note("  filtered out (mutual exclusion)")
            return nil
        }
        if let forced = rule.unretainedForcedValue {
            let reach = forced.with { forced in self.reach(of: forced) }
            if trace != nil { noteReach(reach, of: rule) }
            guard reach == .applies else { return nil }
            return Self.forcedResult(forced, of: rule, at: ruleIndex)
        }
        guard let unretained = rule.unretainedExperiment else { return nil }
        if let reference = rule.banditReference {
            // A bandit's leaf sets the weights of a copy of the experiment, held strongly.
            var experiment = unretained.with { $0 }
            let bandit = route(&experiment, bandit: reference, rule: rule.json)
            return experimentResult(experiment, of: rule, at: ruleIndex, id: id, seen: seen, bandit: bandit)
        }
        // The rule holds its experiment: run without counting a reference.
        return unretained.with { experiment in
            experimentResult(experiment, of: rule, at: ruleIndex, id: id, seen: seen, bandit: nil)
        }
    }

    /// What an experiment rule decides: its variation's value when the user
    /// is in the experiment and the variation does not pass through.
    private mutating func experimentResult(
        _ experiment: GrowthBookExperiment,
        of rule: FeatureRule,
        at ruleIndex: Int,
        id: String,
        seen: Set<String>,
        bandit: [JSONValue.Member]?
    ) -> FeatureResult? {
        let outcome = runExperiment(experiment, featureId: id, seen: seen)
        guard outcome.inExperiment, !experiment.passesThrough(outcome.variation) else { return nil }
        let value = experiment.variations[outcome.variation]
        note("  decides: variation \(outcome.variation) = \(JavaScriptSemantics.stringify(value) ?? "")")
        // The bandit's details belong to users bucketed by hash, not to forced ones.
        let part = experimentPart(
            experiment,
            featureId: id,
            outcome: outcome,
            bandit: outcome.hashUsed ? bandit : nil
        )
        return FeatureResult(
            value: value,
            source: .experiment,
            ruleId: rule.id,
            ruleIndex: ruleIndex,
            decidingExperiment: part
        )
    }

    /// Whether a force or rollout rule's value reaches this user, and if not, why.
    private enum Reach {
        case applies, conditionFails, outsideRollout
    }

    /// How far a force or rollout rule reaches this user.
    private mutating func reach(of forced: ForcedValue) -> Reach {
        if !forced.conditionHolds(for: context.attributeTable, groups: context.savedGroups) { return .conditionFails }
        return isIncludedInRollout(forced) ? .applies : .outsideRollout
    }

    /// The trace's lines for a force or rollout rule.
    private mutating func noteReach(_ reach: Reach, of rule: FeatureRule) {
        guard let forced = rule.forcedValue else { return }
        switch reach {
        case .conditionFails:
            note("  condition \(JavaScriptSemantics.stringify(rule.json["condition"]) ?? "") is false: skipped")
        case .outsideRollout:
            note("  not in the rollout (coverage \(forced.coverage.map { String($0) } ?? "-"))")
        case .applies:
            note("  applies: the feature is \(JavaScriptSemantics.stringify(forced.value) ?? "")")
        }
    }

    /// What a rule's prerequisites say.
    private enum Prerequisites {
        /// They all hold: the rule goes on.
        case hold
        /// One failed: the rule is skipped.
        case skipRule
        /// A gate failed, or they lead back to a cycle: the feature stops with this result.
        case stop(FeatureResult)
    }

    /// Evaluates a rule's prerequisite features, in order, against their conditions.
    private mutating func prerequisites(of rule: FeatureRule, seen: Set<String>) -> Prerequisites {
        for parent in rule.parentConditions {
            var branch = seen
            let parentResult = evaluateFeature(parent.feature, seen: &branch)
            if parentResult.source == .cyclicPrerequisite {
                return .stop(FeatureResult(value: .null, source: .cyclicPrerequisite, ruleId: "", ruleIndex: nil))
            }
            let passed = parent.condition.holds(
                for: .object([.init("value", parentResult.value)]),
                groups: context.savedGroups
            )
            if !passed {
                if parent.gate {
                    return .stop(FeatureResult(value: .null, source: .prerequisite, ruleId: "", ruleIndex: nil))
                }
                return .skipRule
            }
        }
        return .hold
    }

    /// The experiment part of a result an experiment decided: the one
    /// handed out last, filled again, when its result was let go of (so
    /// that evaluating allocates nothing), or a new one.
    private mutating func experimentPart(
        _ experiment: GrowthBookExperiment,
        featureId: String,
        outcome: ExperimentOutcome,
        bandit: [JSONValue.Member]?
    ) -> DecidingExperiment {
        let hashed = outcome.subject
        if spareExperimentPart != nil, isKnownUniquelyReferenced(&spareExperimentPart!) {
            let part = spareExperimentPart!
            part.refill(experiment: experiment, featureId: featureId, outcome: outcome, bandit: bandit)
            if spareSubject != hashed {
                part.rehash(
                    attribute: hashedAttributes[hashed].name,
                    value: hashedAttributes[hashed].value ?? .string("")
                )
                spareSubject = hashed
            }
            return part
        }
        let part = DecidingExperiment(
            evaluated: .init(
                experiment: experiment,
                featureId: featureId,
                outcome: outcome,
                hashAttribute: hashedAttributes[hashed].name,
                attributeValue: hashedAttributes[hashed].value ?? .string(""),
                bandit: bandit
            )
        )
        spareExperimentPart = part
        spareSubject = hashed
        return part
    }

    /// A rule in a few words, for the trace.
    private static func describe(_ rule: FeatureRule, feature: String) -> String {
        switch rule.kind {
        case .force(let forced), .rollout(let forced):
            return "force \(JavaScriptSemantics.stringify(forced.value) ?? "")"
        case .experiment(let experiment), .bandit(let experiment, _): return "experiment \(experiment.key)"
        case .ignored: return "experiment \(rule.json["key"]?.stringValue ?? feature)"
        }
    }

    /// Weights a contextual-bandit rule's experiment as the JavaScript SDK
    /// does: by the first leaf of its bandit whose condition the user meets,
    /// or by the rule's own (marginal) weights as leaf -1 when none does.
    /// - Returns: the details a hashed result carries (`leafId`,
    ///   `variationWeights`, `banditVersion`), or `nil` when the bandit is not
    ///   in the payload (the rule then runs on its marginal weights, without them).
    private mutating func route(
        _ experiment: inout GrowthBookExperiment,
        bandit reference: String,
        rule: JSONValue
    ) -> [JSONValue.Member]? {
        guard let bandit = context.contextualBandits[reference] else {
            note("  bandit \(reference) is not in the payload; marginal weights")
            return nil
        }
        var weights =
            rule["weights"] ?? .array(BucketMath.equalWeights(experiment.variations.count).map(JSONValue.number))
        let leaf = leaf(of: bandit, reference: reference)
        if let leaf {
            weights = leaf.weights ?? .array([])
            experiment = experiment.weighted(weights)
            note("  bandit \(reference): leaf \(JavaScriptSemantics.stringify(leaf.leafId ?? .null) ?? "")")
        } else {
            note("  bandit \(reference): no leaf matches; marginal weights (leaf -1)")
        }
        var details: [JSONValue.Member] = [
            .init("leafId", leaf.map { $0.leafId ?? .number(-1) } ?? .number(-1)), .init("variationWeights", weights),
        ]
        if let version = bandit.banditVersion { details.append(.init("banditVersion", version)) }
        return details
    }

    /// The first leaf of `bandit` whose condition this context meets, found once per context.
    private mutating func leaf(of bandit: ContextualBandit, reference: String) -> ContextualBandit.Leaf? {
        if let known = banditLeaves[reference] { return known }
        let leaf = bandit.leaves.first { $0.condition.holds(for: context.attributeTable, groups: context.savedGroups) }
        banditLeaves[reference] = .some(leaf)
        return leaf
    }

    // MARK: - Experiments

    /// Runs an experiment (GrowthBook's JSON shape) for this context.
    public mutating func run(_ experiment: JSONValue, featureId: String? = nil) -> ExperimentResult {
        memo = [:]
        evaluationCount = 0
        let decoded = GrowthBookExperiment(experiment)
        let outcome = runExperiment(decoded, featureId: featureId, seen: [])
        return result(of: outcome, in: decoded, featureId: featureId)
    }

    /// Runs an experiment for this context: how the user comes out, from
    /// which ``result(of:in:featureId:)`` makes the full result when one is
    /// wanted (the tracking callback, sticky buckets, a caller asking).
    /// `seen` is the path of features that led here; each prerequisite walks
    /// on from it on a branch of its own, so the path itself is only read,
    /// never copied (a copy for every experiment was a reference counted).
    private mutating func runExperiment(
        _ experiment: GrowthBookExperiment,
        featureId: String?,
        seen: Set<String>
    ) -> ExperimentOutcome {
        let key = experiment.key
        let count = experiment.variations.count
        // Whom the experiment hashes: found once, for the bucket and for the result.
        let fallsBack = fallsBack(stickyBucketingDisabled: experiment.disableStickyBucketing)
        let subject = subject(experiment.hashAttribute, slot: experiment.hashSlot) {
            fallsBack ? experiment.fallbackAttribute : nil
        }
        let out = ExperimentOutcome(notIn: experiment, subject: subject)
        if count < 2 || !context.enabled { return out }
        if context.url != nil, let forced = queryStringOverride(key, variations: count) {
            return ExperimentOutcome(experiment, variation: forced, subject: subject)
        }
        if !context.forcedVariations.isEmpty, let forced = context.forcedVariations[key] {
            return ExperimentOutcome(experiment, variation: forced, subject: subject)
        }
        if experiment.isInactive { return out }
        guard hashedAttributes[subject].value != nil else {
            note("  no value for the hash attribute: not in the experiment")
            return out
        }
        if trace != nil {
            let hashed = hashedAttributes[subject]
            note("  hash attribute \(hashed.name) = \(hashed.hashed.text)")
        }
        let sticky = stickyDocuments != nil && !experiment.disableStickyBucketing
        let stored = sticky ? stickyVariation(experiment) : (variation: -1, blocked: false)
        let foundSticky = stored.variation >= 0
        if foundSticky { note("  sticky bucket: variation \(stored.variation)") }
        if !foundSticky, targetingFails(experiment, subject: subject, seen: seen) { return out }
        guard let bucket = hash(subject, seed: experiment.hashSeed, version: experiment.hashVersion) else { return out }
        var assigned = stored.variation
        if !foundSticky {
            let ranges = experiment.bucketRanges
            assigned = BucketMath.chooseVariation(bucket, ranges: ranges) ?? -1
            note(
                "  bucket \(bucket) (hash v\(experiment.hashVersion), seed \(experiment.hashSeed.text)); ranges "
                    + ranges.map(\.description).joined(separator: " ")
                    + " (coverage \(experiment.coverage ?? 1)): "
                    + (assigned >= 0 ? "variation \(assigned)" : "in no range, so not in the experiment")
            )
        }
        // A user with a sticky bucket from a blocked version leaves the experiment.
        if stored.blocked {
            var blocked = out
            blocked.stickyBucketUsed = true
            return blocked
        }
        guard assigned >= 0 else { return out }
        if let forced = experiment.forcedVariation {
            return ExperimentOutcome(experiment, variation: forced ?? -1, subject: subject)
        }
        if context.qaMode || experiment.isStopped { return out }
        var final = ExperimentOutcome(experiment, variation: assigned, subject: subject)
        final.hashUsed = true
        final.bucket = bucket
        final.stickyBucketUsed = foundSticky
        if sticky { persistStickyBucket(experiment, result: result(of: final, in: experiment, featureId: featureId)) }
        if onExperimentViewed != nil { track(experiment, result(of: final, in: experiment, featureId: featureId)) }
        return final
    }

    /// Filters or namespace, condition and prerequisites: whether they exclude the user.
    private mutating func targetingFails(
        _ experiment: GrowthBookExperiment,
        subject: Int,
        seen: Set<String>
    ) -> Bool {
        if let filters = experiment.filters {
            if isFilteredOut(filters) {
                note("  filtered out (mutual exclusion)")
                return true
            }
        } else if let namespace = experiment.namespace, !isInNamespace(subject, namespace) {
            note("  outside namespace \(JavaScriptSemantics.stringify(experiment.json["namespace"]) ?? "")")
            return true
        }
        if experiment.hasNamespace && experiment.filters == nil {
            note("  inside namespace \(JavaScriptSemantics.stringify(experiment.json["namespace"]) ?? "")")
        }
        if let condition = experiment.unretainedCondition {
            let passes = condition.with { $0.holds(for: context.attributeTable, groups: context.savedGroups) }
            note("  condition \(JavaScriptSemantics.stringify(experiment.json["condition"]) ?? "") is \(passes)")
            if !passes { return true }
        }
        for parent in experiment.parentConditions {
            var branch = seen
            let parentResult = evaluateFeature(parent.feature, seen: &branch)
            if parentResult.source == .cyclicPrerequisite { return true }
            let passed = parent.condition.holds(
                for: .object([.init("value", parentResult.value)]),
                groups: context.savedGroups
            )
            if !passed { return true }
        }
        return false
    }

    // MARK: - Sticky buckets

    /// The variation a stored sticky bucket gives, or -1; blocked when the user
    /// holds a bucket of a version below the experiment's minimum.
    private func stickyVariation(_ experiment: GrowthBookExperiment) -> (variation: Int, blocked: Bool) {
        let key = experiment.key
        let documents = stickyDocumentsFor(experiment.hashAttribute, fallback: experiment.fallbackAttribute)
        let minimum = experiment.minBucketVersion
        if documents.contains(where: { $0.holdsBlockedVersion(of: key, below: minimum) }) { return (-1, true) }
        let stickyKey = StickyBucketDocument.key(experiment: key, version: experiment.bucketVersion)
        // The hash attribute's document wins over the fallback's.
        guard let variationKey = documents.lazy.compactMap({ $0[stickyKey] }).first else { return (-1, false) }
        let stickyMeta = experiment.givenMeta?.elements ?? []
        guard let index = stickyMeta.firstIndex(where: { $0["key"]?.stringValue == variationKey }) else {
            return (-1, false)
        }
        return (index, false)
    }

    /// The stored documents of the user's hash attribute, then of its fallback.
    private func stickyDocumentsFor(_ attribute: String?, fallback: String?) -> [StickyBucketDocument] {
        guard let docs = stickyDocuments else { return [] }
        let (name, value) = truthyAttribute(attribute)
        let (fallbackName, fallbackValue) = truthyAttribute(fallback)
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
    private mutating func persistStickyBucket(_ experiment: GrowthBookExperiment, result: ExperimentResult) {
        let attributeValue = JavaScriptSemantics.string(result.attributeValue)
        let key = "\(result.hashAttribute)||\(attributeValue)"
        let stickyKey = StickyBucketDocument.key(experiment: experiment.key, version: experiment.bucketVersion)
        var document =
            stickyDocuments?.removeValue(forKey: key)
            ?? StickyBucketDocument(attributeName: result.hashAttribute, attributeValue: attributeValue)
        let before = document
        document.set(stickyKey, result.key)
        stickyDocuments?[key] = document
        if document != before { stickyBucketService?.saveAssignments(document.json) }
    }

    /// Calls the tracking callback, once per hash attribute, value, experiment and variation.
    private mutating func track(_ experiment: GrowthBookExperiment, _ result: ExperimentResult) {
        guard let onExperimentViewed else { return }
        let key =
            result.hashAttribute + JavaScriptSemantics.string(result.attributeValue) + experiment.key
            + String(result.variationId)
        guard trackedExperiments.insert(key).inserted else { return }
        onExperimentViewed(experiment, result)
    }

    /// The full result of an outcome of `experiment`.
    private func result(
        of outcome: ExperimentOutcome,
        in experiment: GrowthBookExperiment,
        featureId: String?
    ) -> ExperimentResult {
        let hashed = hashedAttributes[outcome.subject]
        return outcome.result(
            of: experiment,
            featureId: featureId,
            hashAttribute: hashed.name,
            attributeValue: hashed.value ?? .string("")
        )
    }

    // MARK: - Pieces

    /// The fallback attribute an experiment or rollout hashes on when its hash
    /// attribute has no value: only with sticky bucketing on and not disabled
    /// for it, as in the SDK (the fallback is there to keep a bucket sticky across a login).
    private func fallsBack(stickyBucketingDisabled: Bool) -> Bool {
        stickyDocuments != nil && !stickyBucketingDisabled
    }

    /// The attribute `name || "id"` and its value when truthy, for what
    /// reads it outside an evaluation (sticky bucket documents).
    private func truthyAttribute(_ name: String?) -> (name: String, value: JSONValue?) {
        let attribute = GrowthBookHash.attribute(name)
        return (attribute, context.attributeTable.truthyValue(named: attribute))
    }

    /// Whom a rule hashes, as a position in ``hashedAttributes``: the
    /// attribute `name || "id"` (found by its `slot` once found by name),
    /// or `fallback` when that one has no truthy value and the fallback has
    /// (the first when neither has). Inlined,
    /// with ``isIncludedInRollout(_:)`` and the seed's hash: left to itself,
    /// an optimized build (`-O`, as apps and lab-bench are built) called all
    /// three, and a rollout took 916 instructions, not 813.
    ///
    /// The fallback is read only when the primary has no value: read first,
    /// its name was retained and released for every experiment.
    @inline(__always)
    private mutating func subject(_ name: String?, slot: Int32, fallback: () -> String?) -> Int {
        let primary: Int
        if slot >= 0, Int(slot) < subjectsBySlot.count, subjectsBySlot[Int(slot)] >= 0 {
            primary = Int(subjectsBySlot[Int(slot)])
        } else {
            primary = hashedAttribute(GrowthBookHash.attribute(name))
            if slot >= 0 {
                if Int(slot) >= subjectsBySlot.count {
                    subjectsBySlot.append(contentsOf: repeatElement(-1, count: Int(slot) + 1 - subjectsBySlot.count))
                }
                subjectsBySlot[Int(slot)] = Int32(primary)
            }
        }
        if hashedAttributes[primary].value == nil, let fallback = fallback(), !fallback.isEmpty {
            let second = hashedAttribute(fallback)
            if hashedAttributes[second].value != nil { return second }
        }
        return primary
    }

    /// The position of the attribute `name` in ``hashedAttributes``, found once per context.
    private mutating func hashedAttribute(_ name: String) -> Int {
        for index in hashedAttributes.indices where hashedAttributes[index].name == name { return index }
        hashedAttributes.append(HashedAttribute(name, in: context.attributeTable))
        return hashedAttributes.count - 1
    }

    /// The hash of a subject's value with `seed`; `nil` for an unknown version.
    /// Inlined, as ``userHash(_:slot:fallback:seed:version:)`` is: once the
    /// seed kept its bytes in place the compiler stopped inlining them, and
    /// an evaluation took 71 ns, not 64.
    @inline(__always)
    private func hash(_ subject: Int, seed: GrowthBookHash.Seed, version: Int) -> Double? {
        GrowthBookHash.hash(seed: seed, value: hashedAttributes[subject].hashed, version: version)
    }

    /// Whether a subject falls in a namespace's slice. Inlined, with
    /// ``BucketMath``'s test: an optimized build called both (experiment
    /// 1,220 → 1,203 instructions, 164 → 160 ns in the harness).
    @inline(__always)
    private func isInNamespace(_ subject: Int, _ namespace: BucketMath.Namespace) -> Bool {
        BucketMath.inNamespace(hashedAttributes[subject].hashed, namespace: namespace)
    }

    /// Whether the user falls outside every range of any filter (mutual exclusion).
    private mutating func isFilteredOut(_ filters: [Filter]) -> Bool {
        for filter in filters {
            guard
                let hash = userHash(filter.attribute, fallback: nil, seed: filter.hashSeed, version: filter.hashVersion)
            else { return true }
            if !filter.ranges.contains(where: { $0.contains(hash) }) { return true }
        }
        return false
    }

    /// Whether a force or rollout rule's value reaches this user. Inlined (see ``subject(_:slot:fallback:)``).
    @inline(__always)
    private mutating func isIncludedInRollout(_ rule: ForcedValue) -> Bool {
        rule.reaches {
            let fallsBack = fallsBack(stickyBucketingDisabled: rule.disableStickyBucketing)
            return userHash(
                rule.hashAttribute,
                slot: rule.hashSlot,
                fallback: fallsBack ? rule.fallbackAttribute : nil,
                seed: rule.hashSeed,
                version: rule.hashVersion
            )
        }
    }

    /// The user's hash by an attribute (or its fallback) with a seed; `nil`
    /// when the user has no value for it or the version is unknown. Inlined
    /// (see ``hash(_:seed:version:)``).
    @inline(__always)
    private mutating func userHash(
        _ attribute: String?,
        slot: Int32 = -1,
        fallback: String?,
        seed: GrowthBookHash.Seed,
        version: Int
    ) -> Double? {
        hashedAttributes[subject(attribute, slot: slot) { fallback }].hash(seed: seed, version: version)
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
