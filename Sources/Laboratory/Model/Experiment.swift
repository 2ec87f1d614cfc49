import GrowthBook

/// Who an experiment is consistent for.
public enum Subject: String, Sendable, Hashable, Codable, CaseIterable {
    /// The same variant on one device, whoever uses it.
    case device
    /// The same variant for one logged-in user on every device; inactive when nobody is logged in.
    case user
}

/// How a subject gets its variant.
public enum Bucketing: String, Sendable, Hashable, Codable, CaseIterable {
    /// Drawn by weight the first time, then stored (the Laboratory way).
    case random
    /// A deterministic function of the subject's id, which ramps without reshuffling.
    case hash
}

/// An experiment: the keys it controls and the variants that assign them.
public struct Experiment: Sendable, Hashable, Codable {
    /// UpperCamelCase name, unique within its source.
    public var name: String
    /// The keys every variant assigns.
    public var keys: [String]
    /// The variants, in catalog order.
    public var variants: [Variant]
    /// The variant that describes what the app does when the experiment is not active.
    public var baseline: String
    /// Where the experiment runs; `nil` runs it on every device.
    public var activeTokenRange: HalfOpenRange?
    /// Who the experiment is consistent for.
    public var subject: Subject
    /// How a subject gets its variant.
    public var bucketing: Bucketing
    /// Subject ids (employees, partners) pinned to a variant, whatever the weights.
    public var whitelist: [String: String]
    /// The winning variant of a resolved experiment, served to everyone; `nil` while it runs.
    public var winner: String?
    /// What people call the experiment where its name is a key (a GrowthBook
    /// rule's `name`, such as "Checkout redesign"): shown and searched beside
    /// the name; `nil` when it has none.
    public var title: String?

    public init(
        name: String,
        keys: [String],
        variants: [Variant],
        baseline: String,
        activeTokenRange: HalfOpenRange? = nil,
        subject: Subject = .device,
        bucketing: Bucketing? = nil,
        whitelist: [String: String] = [:],
        winner: String? = nil,
        title: String? = nil
    ) {
        self.name = name
        self.keys = keys
        self.variants = variants
        self.baseline = baseline
        self.activeTokenRange = activeTokenRange
        self.subject = subject
        self.bucketing = bucketing ?? (subject == .user ? .hash : .random)
        self.whitelist = whitelist
        self.winner = winner
        self.title = title
    }

    /// Whether the experiment is concluded and serves its winner.
    public var isResolved: Bool { winner != nil }

    /// The variant with this name, if the experiment has one.
    public func variant(named name: String) -> Variant? {
        variants.first { $0.name == name }
    }

    /// The share of draws the variant gets, from 0 to 1.
    public func share(of variant: Variant) -> Double {
        let total = variants.reduce(0) { $0 + $1.weight }
        return total > 0 ? variant.weight / total : 0
    }
}
