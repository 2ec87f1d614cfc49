import Synchronization

/// One user's evaluator, kept for all their evaluations: set up once (payload,
/// attributes, options, sticky buckets), so an evaluation copies nothing and
/// allocates nothing for them. Evaluations of one user from several threads
/// take turns; the tracking callbacks an evaluation causes are called after
/// the turn ends, so a callback may evaluate the same user again.
final class UserEvaluator: Sendable {
    private let evaluator: Mutex<GrowthBookEvaluator>
    /// The evaluator's context, which a user never changes: turn-free
    /// features (``GrowthBookFeature/isTurnFree``) are decided from it without a turn.
    private let context: GrowthBookContext
    /// The attributes the rollouts of turn-free features hash, found and hashed once for the user.
    private let rolloutSubjects: [HashedAttribute]
    /// Experiments viewed during the current turn, handed to the client after it.
    private let views = ViewLog()
    /// The client the user came from, told what the user viewed and used.
    let client: GrowthBookClient
    /// The user's attributes, the client's under their own.
    let attributes: GrowthBookAttributes
    /// Whether the client reports feature usage: without a callback no lock is taken.
    let reportsUsage: Bool

    /// - Parameters:
    ///   - tracks: whether the client has a tracking callback; without one,
    ///     evaluations skip tracking altogether.
    ///   - reportsUsage: whether the client has a feature-usage callback.
    init(
        _ evaluator: consuming GrowthBookEvaluator,
        attributes: GrowthBookAttributes,
        client: GrowthBookClient,
        tracks: Bool,
        reportsUsage: Bool
    ) {
        let views = views
        if tracks { evaluator.onExperimentViewed = { experiment, result in views.append(experiment, result) } }
        context = evaluator.context
        let attributeTable = evaluator.context.attributeTable
        let features = evaluator.context.features
        rolloutSubjects = zip(features.rolloutAttributes, features.rolloutSlots).map {
            HashedAttribute($0, in: attributeTable, slot: $1)
        }
        self.evaluator = Mutex(evaluator)
        self.attributes = attributes
        self.client = client
        self.reportsUsage = reportsUsage
    }

    /// Runs `body` on the evaluator, then reports what it viewed.
    // Always inlined: called generically, it took `body`'s captures (the
    // feature's key) as owned, a retain and a release on every evaluation.
    @inline(__always)
    func withEvaluator<Result>(_ body: (inout GrowthBookEvaluator) -> Result) -> Result {
        // Reported after the result is made, which then goes straight to the
        // caller: through a local it was copied, and read back just after it was written.
        defer {
            if views.hasViews {
                for (experiment, viewed) in views.drain() { client.viewed(experiment, viewed) }
            }
        }
        return evaluator.withLock { body(&$0) }
    }

    /// The feature's value for this user, and why. A turn-free feature is
    /// decided from the context and the user's hashed rollout attributes
    /// without taking the user's turn: it reads nothing the evaluator keeps,
    /// and the turn's lock and unlock were 8–9 % of an evaluation;
    /// evaluations of turn-free features from several threads also never
    /// wait for each other or for an experiment's.
    @inline(__always)
    func evaluateFeature(_ id: String) -> FeatureResult {
        guard context.forcedFeatures.isEmpty, let found = context.features.unretainedFeature(id) else {
            return withEvaluator { $0.evaluateFeature(id) }
        }
        // The context holds its features for as long as this user: no reference is counted.
        return found.with { feature in evaluate(feature, id: id) }
    }

    /// ``evaluateFeature(_:)`` of the feature `id`, found already (`feature`).
    @inline(__always)
    private func evaluate(_ feature: GrowthBookFeature, id: String) -> FeatureResult {
        // A plain feature is turn-free too; its own walk has no rollout's test (15 instructions a force rule).
        if feature.isPlain { return plainResult(of: feature) }
        if feature.isTurnFree {
            return GrowthBookEvaluator.turnFreeResult(
                of: feature,
                attributes: context.attributeTable,
                groups: context.savedGroups,
                subjects: rolloutSubjects
            )
        }
        return withEvaluator { $0.evaluateFeature(id, found: feature) }
    }

    /// A plain feature's result, in a function of its own: inlined beside
    /// the turn-free walk, the compact condition's test was left a call
    /// (659 instructions a force rule with two tests, against 574 through
    /// the evaluator, whose plain walk has it inlined). The walk is inlined
    /// here: called, its result was made in a slot of its own and copied
    /// to this one's caller, and a loop of force rules through the front
    /// door took 22 % longer than through the evaluator, not 7 %.
    @inline(never)
    private func plainResult(of feature: GrowthBookFeature) -> FeatureResult {
        GrowthBookEvaluator.plainResult(of: feature, attributes: context.attributeTable, groups: context.savedGroups)
    }

    /// The attributes and values whose sticky documents this user needs.
    var stickyBucketIdentifiers: [String: String] { evaluator.withLock { $0.stickyBucketIdentifiers() } }

    /// Turns sticky bucketing on with `service`'s documents.
    func useStickyBuckets(_ service: any StickyBucketService) {
        evaluator.withLock { $0.useStickyBuckets(service) }
    }
}

/// The experiments an evaluation viewed, waiting for its turn to end.
private final class ViewLog: Sendable {
    private let pending = Mutex<[(GrowthBookExperiment, ExperimentResult)]>([])
    /// Set while views wait, read without the lock on every evaluation.
    private let waiting = Atomic<Bool>(false)

    var hasViews: Bool { waiting.load(ordering: .acquiring) }

    func append(_ experiment: GrowthBookExperiment, _ result: ExperimentResult) {
        pending.withLock { $0.append((experiment, result)) }
        waiting.store(true, ordering: .releasing)
    }

    func drain() -> [(GrowthBookExperiment, ExperimentResult)] {
        pending.withLock { pending in
            waiting.store(false, ordering: .releasing)
            defer { pending = [] }
            return pending
        }
    }
}
