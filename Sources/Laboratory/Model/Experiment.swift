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
///
/// A value type whose fields live in one shared, immutable box: an
/// experiment is copied into every active variant, debug entry and row of
/// a catalog of thousands, and a copy costs one reference count instead
/// of one per field. Setting a field makes a new box.
public struct Experiment: Sendable, Hashable {
    /// The fields as plain values.
    private struct Values {
        var name: String
        var keys: [String]
        var variants: [Variant]
        var baseline: String
        var activeTokenRange: HalfOpenRange?
        var subject: Subject
        var bucketing: Bucketing
        var whitelist: [String: String]
        var winner: String?
        var title: String?
    }

    /// The fields, shared by every copy until one is set.
    private final class Fields: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private var fields: Fields

    /// UpperCamelCase name, unique within its source.
    public var name: String {
        get { fields.values.name }
        set { change { $0.name = newValue } }
    }
    /// The keys every variant assigns.
    public var keys: [String] {
        get { fields.values.keys }
        set { change { $0.keys = newValue } }
    }
    /// The variants, in catalog order.
    public var variants: [Variant] {
        get { fields.values.variants }
        set { change { $0.variants = newValue } }
    }
    /// The variant that describes what the app does when the experiment is not active.
    public var baseline: String {
        get { fields.values.baseline }
        set { change { $0.baseline = newValue } }
    }
    /// Where the experiment runs; `nil` runs it on every device.
    public var activeTokenRange: HalfOpenRange? {
        get { fields.values.activeTokenRange }
        set { change { $0.activeTokenRange = newValue } }
    }
    /// Who the experiment is consistent for.
    public var subject: Subject {
        get { fields.values.subject }
        set { change { $0.subject = newValue } }
    }
    /// How a subject gets its variant.
    public var bucketing: Bucketing {
        get { fields.values.bucketing }
        set { change { $0.bucketing = newValue } }
    }
    /// Subject ids (employees, partners) pinned to a variant, whatever the weights.
    public var whitelist: [String: String] {
        get { fields.values.whitelist }
        set { change { $0.whitelist = newValue } }
    }
    /// The winning variant of a resolved experiment, served to everyone; `nil` while it runs.
    public var winner: String? {
        get { fields.values.winner }
        set { change { $0.winner = newValue } }
    }
    /// What people call the experiment where its name is a key (a GrowthBook
    /// rule's `name`, such as "Checkout redesign"): shown and searched beside
    /// the name; `nil` when it has none.
    public var title: String? {
        get { fields.values.title }
        set { change { $0.title = newValue } }
    }

    /// An experiment; everything after `baseline` is optional, as in a catalog.
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
        fields = Fields(
            Values(
                name: name,
                keys: keys,
                variants: variants,
                baseline: baseline,
                activeTokenRange: activeTokenRange,
                subject: subject,
                bucketing: bucketing ?? (subject == .user ? .hash : .random),
                whitelist: whitelist,
                winner: winner,
                title: title
            )
        )
    }

    /// Boxes the fields again with one changed: the old box may be shared.
    private mutating func change(_ edit: (inout Values) -> Void) {
        var values = fields.values
        edit(&values)
        fields = Fields(values)
    }

    public static func == (lhs: Experiment, rhs: Experiment) -> Bool {
        if lhs.fields === rhs.fields { return true }
        let (a, b) = (lhs.fields.values, rhs.fields.values)
        return a.name == b.name && a.keys == b.keys && a.variants == b.variants && a.baseline == b.baseline
            && a.activeTokenRange == b.activeTokenRange && a.subject == b.subject && a.bucketing == b.bucketing
            && a.whitelist == b.whitelist && a.winner == b.winner && a.title == b.title
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(keys)
        hasher.combine(variants)
        hasher.combine(baseline)
        hasher.combine(activeTokenRange)
        hasher.combine(subject)
        hasher.combine(bucketing)
        hasher.combine(whitelist)
        hasher.combine(winner)
        hasher.combine(title)
    }

    /// The keys the variant at `index` assigns, read in place.
    func assignedKeys(ofVariantAt index: Int) -> [String] {
        fields.values.variants[index].assignments.keys
    }

    /// Whether `other` is this very experiment (the same fields, shared), which makes it equal without comparing.
    func isSame(as other: Experiment) -> Bool {
        fields === other.fields
    }

    /// Whether the experiment is concluded and serves its winner.
    public var isResolved: Bool { winner != nil }

    /// The variant with this name, if the experiment has one.
    public func variant(named name: String) -> Variant? {
        // By index: `first(where:)` over the boxed array would copy every variant it passes.
        let variants = fields.values.variants
        guard let index = variants.firstIndex(where: { $0.name == name }) else { return nil }
        return variants[index]
    }

    /// The share of draws the variant gets, from 0 to 1.
    public func share(of variant: Variant) -> Double {
        let total = variants.reduce(0) { $0 + $1.weight }
        return total > 0 ? variant.weight / total : 0
    }
}

extension Experiment: Codable {
    /// The fields as the compiler would have coded them: in order, the optional ones only when present.
    private enum CodingKeys: String, CodingKey {
        case name, keys, variants, baseline, activeTokenRange, subject, bucketing, whitelist, winner, title
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            keys: try container.decode([String].self, forKey: .keys),
            variants: try container.decode([Variant].self, forKey: .variants),
            baseline: try container.decode(String.self, forKey: .baseline),
            activeTokenRange: try container.decodeIfPresent(HalfOpenRange.self, forKey: .activeTokenRange),
            subject: try container.decode(Subject.self, forKey: .subject),
            bucketing: try container.decode(Bucketing.self, forKey: .bucketing),
            whitelist: try container.decode([String: String].self, forKey: .whitelist),
            winner: try container.decodeIfPresent(String.self, forKey: .winner),
            title: try container.decodeIfPresent(String.self, forKey: .title)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(keys, forKey: .keys)
        try container.encode(variants, forKey: .variants)
        try container.encode(baseline, forKey: .baseline)
        try container.encodeIfPresent(activeTokenRange, forKey: .activeTokenRange)
        try container.encode(subject, forKey: .subject)
        try container.encode(bucketing, forKey: .bucketing)
        try container.encode(whitelist, forKey: .whitelist)
        try container.encodeIfPresent(winner, forKey: .winner)
        try container.encodeIfPresent(title, forKey: .title)
    }
}
