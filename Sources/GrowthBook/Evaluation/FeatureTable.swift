/// Decoded features by key, for the lookup every evaluation starts with.
///
/// A `Dictionary` hashes a key with seeded SipHash: an eighth of the
/// instructions of an average evaluation in `lab-bench growthbook`. This
/// table hashes the key's bytes eight at a time (`NameHash`) and probes
/// linearly from there. The hash has no seed, so
/// a payload's keys can be made to collide: a key that lands further than
/// `maximumProbes` slots from its own turns the table off, and the features
/// go into a dictionary instead, costing what they cost before the table.
public struct FeatureTable: Sendable {
    /// One reference, whichever way lookups go: an evaluation reaches its
    /// feature through it without unwrapping an enum (and counting references) first.
    private let storage: Storage

    /// How far from its slot a key may land before the table is turned off.
    static let maximumProbes = 32

    /// Features by key, decoded.
    public init(_ byKey: [String: GrowthBookFeature] = [:]) {
        self.init(byKey.map { ($0.key, $0.value) })
    }

    /// Features by key, in payload order: the first of a repeated key wins, as in a JavaScript object.
    init(_ entries: [(key: String, feature: GrowthBookFeature)]) {
        storage = Storage(entries)
    }

    /// The feature under `key`, if any.
    public subscript(key: String) -> GrowthBookFeature? {
        storage.feature(key)
    }

    /// How many keys there are.
    public var count: Int { storage.features.count }

    /// The features, in payload order (the first of a repeated key).
    public var values: [GrowthBookFeature] { storage.features }

    /// Whether lookups use the table (`false` after keys collided too much).
    var usesTable: Bool { storage.byKey == nil }

    /// The features and their keys side by side, in payload order, and
    /// slots pointing at them (``ProbedSlots``), at most a quarter full, so
    /// that probes stay short however many keys there are. When keys
    /// collide too much the slots are dropped and a dictionary answers.
    private final class Storage: Sendable {
        let keys: [String]
        let features: [GrowthBookFeature]
        let slots: ProbedSlots
        /// Positions by key, when keys collided too much for the slots.
        let byKey: [String: Int]?

        init(_ entries: [(key: String, feature: GrowthBookFeature)]) {
            var keys: [String] = []
            var features: [GrowthBookFeature] = []
            keys.reserveCapacity(entries.count)
            features.reserveCapacity(entries.count)
            var slots = ProbedSlots(atLeast: max(8, entries.count * 4), maximumProbes: FeatureTable.maximumProbes)
            var byKey: [String: Int]?
            for (key, feature) in entries {
                if byKey == nil {
                    switch slots.place(FeatureTable.hash(key), at: keys.count, isSame: { keys[$0] == key }) {
                    case .placed: break
                    case .found: continue  // a repeated key
                    case .tooFar:
                        byKey = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                    }
                }
                if byKey != nil {
                    guard byKey![key] == nil else { continue }
                    byKey![key] = keys.count
                }
                keys.append(key)
                features.append(feature)
            }
            self.keys = keys
            self.features = features
            self.slots = slots
            self.byKey = byKey
        }

        func feature(_ key: String) -> GrowthBookFeature? {
            if let byKey { return byKey[key].map { features[$0] } }
            return slots.find(FeatureTable.hash(key), isSame: { keys[$0] == key }).map { features[$0] }
        }
    }

    /// The key's hash (``NameHash``).
    static func hash(_ key: String) -> UInt32 { NameHash.of(key) }
}
