/// Decoded features by key, for the lookup every evaluation starts with.
///
/// A `Dictionary` hashes a key with seeded SipHash: an eighth of the
/// instructions of an average evaluation in `lab-bench growthbook`. This
/// table hashes the key with FNV-1a (`GrowthBookHash/fnv32a(_:)`) and
/// probes linearly from there, at about half the cost. FNV-1a has no seed, so
/// a payload's keys can be made to collide: a key that lands further than
/// `maximumProbes` slots from its own turns the table off, and the features
/// go into a dictionary instead, costing what they cost before the table.
public struct FeatureTable: Sendable {
    private let storage: Storage

    private enum Storage: Sendable {
        case table(Slots)
        /// When keys collided too much.
        case dictionary([String: GrowthBookFeature])
    }

    /// How far from its slot a key may land before the table is turned off.
    static let maximumProbes = 32

    /// Features by key, decoded.
    public init(_ byKey: [String: GrowthBookFeature] = [:]) {
        self.init(byKey.map { ($0.key, $0.value) })
    }

    /// Features by key, in payload order: the first of a repeated key wins, as in a JavaScript object.
    init(_ entries: [(key: String, feature: GrowthBookFeature)]) {
        if let slots = Slots(entries) {
            storage = .table(slots)
        } else {
            storage = .dictionary(Dictionary(entries, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The feature under `key`, if any.
    public subscript(key: String) -> GrowthBookFeature? {
        switch storage {
        case .table(let slots): return slots.feature(key)
        case .dictionary(let byKey): return byKey[key]
        }
    }

    /// How many keys there are.
    public var count: Int {
        switch storage {
        case .table(let slots): return slots.count
        case .dictionary(let byKey): return byKey.count
        }
    }

    /// The features, in no particular order.
    public var values: [GrowthBookFeature] {
        switch storage {
        case .table(let slots): return slots.features.compactMap { $0 }
        case .dictionary(let byKey): return Array(byKey.values)
        }
    }

    /// Whether lookups use the table (`false` after keys collided too much).
    var usesTable: Bool {
        if case .table = storage { return true }
        return false
    }

    /// Keys, their hashes and features side by side, a power of two of them,
    /// at most a quarter full, so that probes stay short however many keys there are.
    private final class Slots: Sendable {
        let keys: [String]
        let hashes: [UInt32]
        let features: [GrowthBookFeature?]
        let mask: Int
        let count: Int

        /// `nil` when a key lands too far from its slot.
        init?(_ entries: [(key: String, feature: GrowthBookFeature)]) {
            var capacity = 8
            while capacity < entries.count * 4 { capacity *= 2 }
            var keys = [String](repeating: "", count: capacity)
            var hashes = [UInt32](repeating: 0, count: capacity)
            var features = [GrowthBookFeature?](repeating: nil, count: capacity)
            let mask = capacity - 1
            var count = 0
            entries: for (key, feature) in entries {
                let hash = FeatureTable.hash(key)
                var slot = Int(hash) & mask
                var probes = 0
                while features[slot] != nil {
                    if hashes[slot] == hash && keys[slot] == key { continue entries }  // a repeated key
                    probes += 1
                    if probes > FeatureTable.maximumProbes { return nil }
                    slot = (slot + 1) & mask
                }
                keys[slot] = key
                hashes[slot] = hash
                features[slot] = feature
                count += 1
            }
            self.keys = keys
            self.hashes = hashes
            self.features = features
            self.mask = mask
            self.count = count
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
