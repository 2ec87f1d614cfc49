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
    /// slots pointing at them: a power of two of slots, at most a quarter
    /// full, so that probes stay short however many keys there are. When
    /// keys collide too much the slots are dropped and a dictionary answers.
    private final class Storage: Sendable {
        let keys: [String]
        let features: [GrowthBookFeature]
        /// Each slot's key hash and the position of its feature (-1: empty).
        let slots: [Slot]
        let mask: Int
        /// Positions by key, when keys collided too much for the slots.
        let byKey: [String: Int]?

        struct Slot: Sendable {
            var hash: UInt32
            var position: Int32
        }

        init(_ entries: [(key: String, feature: GrowthBookFeature)]) {
            var keys: [String] = []
            var features: [GrowthBookFeature] = []
            var seen = Set<String>()
            keys.reserveCapacity(entries.count)
            features.reserveCapacity(entries.count)
            for (key, feature) in entries where seen.insert(key).inserted {
                keys.append(key)
                features.append(feature)
            }
            var capacity = 8
            while capacity < keys.count * 4 { capacity *= 2 }
            var slots = [Slot](repeating: Slot(hash: 0, position: -1), count: capacity)
            let mask = capacity - 1
            var collided = false
            keys: for (position, key) in keys.enumerated() {
                let hash = FeatureTable.hash(key)
                var slot = Int(hash) & mask
                var probes = 0
                while slots[slot].position >= 0 {
                    probes += 1
                    if probes > FeatureTable.maximumProbes {
                        collided = true
                        break keys
                    }
                    slot = (slot + 1) & mask
                }
                slots[slot] = Slot(hash: hash, position: Int32(position))
            }
            self.keys = keys
            self.features = features
            self.mask = collided ? 0 : mask
            self.slots = collided ? [] : slots
            byKey = collided ? Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }) : nil
        }

        /// Every key was placed within ``FeatureTable/maximumProbes`` of its
        /// slot, and none was removed, so an empty slot or that many probes end the search.
        func feature(_ key: String) -> GrowthBookFeature? {
            if let byKey { return byKey[key].map { features[$0] } }
            let hash = FeatureTable.hash(key)
            var slot = Int(hash) & mask
            for _ in 0...FeatureTable.maximumProbes {
                let found = slots[slot]
                if found.position < 0 { return nil }
                if found.hash == hash && keys[Int(found.position)] == key { return features[Int(found.position)] }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// The key's hash (``NameHash``).
    static func hash(_ key: String) -> UInt32 { NameHash.of(key) }
}
