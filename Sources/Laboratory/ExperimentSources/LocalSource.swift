import Foundation
import Synchronization

/// A source whose experiments come from a catalog file shipped with the app.
///
/// An experiment is active where it has no token range or the subject's token
/// is inside it. With random bucketing, the first time it is active the device
/// draws a variant by weight and keeps it; a removed variant makes the device
/// draw again; a removed experiment forgets its draw; a changed token range
/// does not affect devices that already drew. With hash bucketing the variant
/// is a function of the subject's id, so weights can be ramped. Only variant
/// names are stored, so changed assignment values are seen at once.
///
/// A user-level experiment needs a user id (``setUserID(_:)``) and is inactive
/// without one. A whitelisted subject gets its pinned variant; a resolved
/// experiment gives everyone its winner. Once stabilized, the source exposes
/// nothing new: experiments without a stored variant stay inactive.
public final class LocalSource: TargetedSource, DrawingSource, Sendable {
    public let name: String
    /// The catalog's experiments sorted by name, and how many times it (or the user) changed.
    private let loaded: Mutex<(experiments: [Experiment], generation: Int)>
    private let user: Mutex<User>

    /// Who is logged in: the app says, and a `userId` attribute QA set overrides it.
    private struct User {
        var app: String?
        var fromAttributes: String?
        var current: String? { fromAttributes ?? app }
    }
    /// The last answer, valid while neither the state nor the catalog changed:
    /// settling draws is a write transaction, and the console asks often.
    private let cache = Mutex<Settled?>(nil)

    private struct Settled {
        var revision: Int64
        var generation: Int
        var active: [ActiveVariant]
        var draws: [String: Draw]
    }
    private let store: any DeviceStore
    private let device: Device
    private let random: any RandomSource
    private let clock: any WallClock
    private let fetcher: (any Fetcher)?
    private let file: String

    /// - Parameters:
    ///   - catalog: the catalog as loaded at start-up.
    ///   - store: where the draws and the stabilization are kept.
    ///   - device: this device, whose token decides token ranges.
    ///   - random: what draws variants by weight.
    ///   - clock: the time draws are stamped with.
    ///   - fetcher: where ``update()`` reads the catalog again; `nil` keeps it fixed.
    ///   - file: how diagnostics of a reloaded catalog name it.
    ///   - userID: the logged-in user, for experiments assigned per user.
    public init(
        catalog: Catalog,
        store: any DeviceStore,
        device: Device,
        random: any RandomSource = SystemRandomSource(),
        clock: any WallClock = SystemClock(),
        fetcher: (any Fetcher)? = nil,
        file: String = "catalog",
        userID: String? = nil
    ) {
        name = catalog.source
        user = Mutex(User(app: userID))
        loaded = Mutex((catalog.experiments.sorted { $0.name < $1.name }, 0))
        self.store = store
        self.device = device
        self.random = random
        self.clock = clock
        self.fetcher = fetcher
        self.file = file
    }

    public var experiments: [Experiment] { loaded.withLock({ $0 }).experiments }

    public func activeVariants() throws -> [ActiveVariant] {
        try settled().active
    }

    /// The stored draws, by experiment, for explanations in the console.
    public func draws() throws -> [String: Draw] {
        try settled().draws
    }

    /// The draws settled against the current state and catalog, computed again
    /// only when either changed: the device's draws and stabilizations
    /// (``DeviceStore/deviceRevision()``; a force elsewhere in the file
    /// leaves them), the catalog or the user.
    private func settled() throws -> Settled {
        let revision = try store.deviceRevision()
        let generation = loaded.withLock({ $0 }).generation
        if let cached = cache.withLock({ $0 }), cached.revision == revision, cached.generation == generation {
            return cached
        }
        let (active, draws) = try settleDraws()
        // Settling may itself change the state; key the answer on the state after it.
        let settled = Settled(
            revision: try store.deviceRevision(),
            generation: generation,
            active: active,
            draws: draws
        )
        cache.withLock { $0 = settled }
        return settled
    }

    /// The logged-in user, for user-level experiments; `nil` when nobody is.
    /// A `userId` among the device's attributes (QA's) wins over the app's.
    public var userID: String? { user.withLock({ $0.current }) }

    /// The device's attributes as they are now: a `userId` among them is the
    /// logged-in user; without one, the user the app logged in is again.
    public func useAttributes(_ attributes: [String: String]) {
        let changed = user.withLock { user -> Bool in
            let before = user.current
            user.fromAttributes = attributes["userId"]
            return user.current != before
        }
        if changed { loaded.withLock { $0.generation += 1 } }
    }

    /// Logs a user in (or out, with `nil`): user-level experiments follow.
    public func setUserID(_ id: String?) {
        user.withLock { $0.app = id }
        loaded.withLock { $0.generation += 1 }
    }

    /// The experiments whose subject is the user read `userId`.
    public var targetingAttributes: [String: [String]] {
        let users = experiments.filter { $0.subject == .user }.map(\.name)
        return users.isEmpty ? [:] : ["userId": users]
    }

    /// The id an experiment is consistent for on this device, if there is one.
    private func subject(of experiment: Experiment, user: String?) -> String? {
        experiment.subject == .device ? device.id : user
    }

    /// Whether the subject's token falls in the experiment's range.
    private func isInRange(_ experiment: Experiment, subject: String) -> Bool {
        guard let range = experiment.activeTokenRange else { return true }
        return range.contains(experiment.subject == .device ? device.token : HashBucketing.token(forUser: subject))
    }

    private func settleDraws() throws -> ([ActiveVariant], [String: Draw]) {
        let experiments = self.experiments
        let user = self.user.withLock({ $0.current })
        let stabilized = try store.stabilization(source: name) != nil
        let byName = Dictionary(uniqueKeysWithValues: experiments.map { ($0.name, $0) })
        var draws = try store.settleDraws(
            source: name,
            experiments: experiments.map(\.name),
            at: clock.now()
        ) { experimentName, stored in
            let experiment = byName[experimentName]!
            guard !experiment.isResolved, let subject = subject(of: experiment, user: user),
                experiment.whitelist[subject] == nil
            else { return .keep }
            let storedIsValid = stored.flatMap { experiment.variant(named: $0.variant) } != nil
            if stabilized { return storedIsValid || stored == nil ? .keep : .forget }
            // A device where the experiment is already active keeps it whatever the range
            // says now; a user's stored variant may be another user's, so users are checked.
            let alreadyActive = stored != nil && experiment.subject == .device
            if !alreadyActive && !isInRange(experiment, subject: subject) {
                return experiment.subject == .user && stored != nil ? .forget : .keep
            }
            switch experiment.bucketing {
            case .random:
                if storedIsValid { return .keep }
                guard let variant = WeightedDraw.draw(experiment, using: random) else { return .forget }
                return .choose(variant.name)
            case .hash:
                guard let variant = HashBucketing.variant(of: experiment, subject: subject) else { return .forget }
                return stored?.variant == variant.name ? .keep : .choose(variant.name)
            }
        }
        // Sized for every experiment up front: a growing list of 10,000 leaves a megabyte of slack.
        var active: [ActiveVariant] = []
        active.reserveCapacity(experiments.count)
        for experiment in experiments {
            if let winner = experiment.winner, let variant = experiment.variant(named: winner) {
                active.append(ActiveVariant(source: name, experiment: experiment, variant: variant, basis: .resolved))
                continue
            }
            guard let subject = subject(of: experiment, user: user) else { continue }
            if let pinned = experiment.whitelist[subject], let variant = experiment.variant(named: pinned) {
                active.append(
                    ActiveVariant(source: name, experiment: experiment, variant: variant, basis: .whitelisted)
                )
                continue
            }
            guard let index = draws.index(forKey: experiment.name),
                let variant = experiment.variant(named: draws.values[index].variant)
            else { continue }
            // The state file's name is a new string per draw; the catalog's is kept once.
            draws.values[index].variant = variant.name
            active.append(
                ActiveVariant(
                    source: name,
                    experiment: experiment,
                    variant: variant,
                    basis: experiment.bucketing == .hash ? .hashed : .drawn
                )
            )
        }
        return (active, draws)
    }

    public func update() async throws {
        guard let fetcher else { return }
        let data = try await fetcher.fetch()
        let fresh = try CatalogDecoder().decode(data, file: file)
        guard fresh.source == name else {
            throw LocalSourceError.renamed(file: file, from: name, to: fresh.source)
        }
        loaded.withLock { $0 = (fresh.experiments.sorted { $0.name < $1.name }, $0.generation + 1) }
    }

    public func stabilize() throws {
        // Settle draws first, so the experiments active now stay active.
        _ = try activeVariants()
        try store.stabilize(source: name, at: clock.now())
    }

    public func stabilization() throws -> Date? {
        try store.stabilization(source: name)
    }
}

/// Why a local source refused a reloaded catalog.
public enum LocalSourceError: Error, CustomStringConvertible {
    /// The catalog at `file` names its source `to`, where the state file knows it as `from`: its draws would be lost.
    case renamed(file: String, from: String, to: String)

    public var description: String {
        switch self {
        case .renamed(let file, let old, let new):
            return "\(file): the catalog's source changed from \"\(old)\" to \"\(new)\"; restart to load it"
        }
    }
}
