/// Decoded features by key, for the lookup every evaluation starts with.
///
/// A `Dictionary` hashes a key with seeded SipHash: an eighth of the
/// instructions of an average evaluation in `lab-bench growthbook`. This
/// table hashes the key with FNV-1a (``GrowthBookHash/fnv32a(_:)``) and
/// probes linearly from there, at under half the cost. FNV-1a has no seed, so
/// a payload's keys can be made to collide: a key that lands further than
/// ``maximumProbes`` slots from its own turns the table off, and every lookup
/// goes to the dictionary, costing what it cost before the table.
public struct FeatureTable: Sendable {
    /// The features by key, as given.
    public let byKey: [String: GrowthBookFeature]
    /// The open-addressing table; `nil` when keys collided too much.
    private let slots: Slots?

    /// How far from its slot a key may land before the table is turned off.
    static let maximumProbes = 32

    public init(_ byKey: [String: GrowthBookFeature] = [:]) {
        self.byKey = byKey
        slots = Slots(byKey)
    }

    /// The feature under `key`, if any.
    public subscript(key: String) -> GrowthBookFeature? {
        guard let slots else { return byKey[key] }
        return slots.feature(key)
    }

    public var count: Int { byKey.count }

    /// The features, in no particular order.
    public var values: Dictionary<String, GrowthBookFeature>.Values { byKey.values }

    /// Whether lookups use the table (`false` after keys collided too much).
    var usesTable: Bool { slots != nil }

    /// Keys, their hashes and features side by side, a power of two of them,
    /// at most a quarter full, so that probes stay short however many keys there are.
    private final class Slots: Sendable {
        let keys: [String]
        let hashes: [UInt32]
        let features: [GrowthBookFeature?]
        let mask: Int

        init?(_ byKey: [String: GrowthBookFeature]) {
            var capacity = 8
            while capacity < byKey.count * 4 { capacity *= 2 }
            var keys = [String](repeating: "", count: capacity)
            var hashes = [UInt32](repeating: 0, count: capacity)
            var features = [GrowthBookFeature?](repeating: nil, count: capacity)
            let mask = capacity - 1
            for (key, feature) in byKey {
                let hash = FeatureTable.hash(key)
                var slot = Int(hash) & mask
                var probes = 0
                while features[slot] != nil {
                    probes += 1
                    if probes > FeatureTable.maximumProbes { return nil }
                    slot = (slot + 1) & mask
                }
                keys[slot] = key
                hashes[slot] = hash
                features[slot] = feature
            }
            self.keys = keys
            self.hashes = hashes
            self.features = features
            self.mask = mask
        }

        /// Every key was placed within ``FeatureTable/maximumProbes`` of its
        /// slot, and none was removed, so an empty slot or that many probes end the search.
        func feature(_ key: String) -> GrowthBookFeature? {
            let hash = FeatureTable.hash(key)
            var slot = Int(hash) & mask
            for _ in 0...FeatureTable.maximumProbes {
                guard let feature = features[slot] else { return nil }
                if hashes[slot] == hash && keys[slot] == key { return feature }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// The key's hash: GrowthBook's own FNV-1a.
    static func hash(_ key: String) -> UInt32 { GrowthBookHash.fnv32a(key) }
}
