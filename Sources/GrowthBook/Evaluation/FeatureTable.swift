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
        self.init(keys: Keys(entries.lazy.map(\.key)), features: entries.map(\.feature))
    }

    /// The features of `keys`, one for each key given, in the same order.
    init(keys: Keys, features: [GrowthBookFeature]) {
        storage = Storage(keys: keys, features: features)
    }

    /// The feature under `key`, if any.
    public subscript(key: String) -> GrowthBookFeature? {
        storage.position(ofKey: key).map { storage.features[$0] }
    }

    /// The feature under `key`, for an evaluation that holds this table
    /// while it reads the feature: found without counting a reference
    /// (``Unretained``), where the subscript's strong one cost every
    /// evaluation a retain and a release.
    @inline(__always)
    func unretainedFeature(_ key: String) -> Unretained<GrowthBookFeature>? {
        guard let position = storage.position(ofKey: key) else { return nil }
        return Unretained(storage.features[position])
    }

    /// How many keys there are.
    public var count: Int { storage.features.count }

    /// The features, in payload order (the first of a repeated key).
    public var values: [GrowthBookFeature] { storage.features }

    /// Whether lookups use the table (`false` after keys collided too much).
    var usesTable: Bool { storage.byKey == nil }

    /// The attributes the rollouts of turn-free features hash
    /// (``GrowthBookFeature/isTurnFree``), each once: usually `id` alone.
    var rolloutAttributes: [String] { storage.rolloutAttributes }
    /// The slot of each of ``rolloutAttributes`` (``AttributeSlots``), or -1.
    var rolloutSlots: [Int32] { storage.rolloutSlots }

    /// The keys of a table placed in its slots, apart from the features: the
    /// part of a table that costs, which a decoding job left without
    /// features to decode builds while the parsing thread decodes the last
    /// ones (``FeatureStreamDecoder``). Slots are at most a quarter full, so
    /// that probes stay short however many keys there are; when keys collide
    /// too much the slots are dropped and a dictionary answers.
    struct Keys: Sendable {
        /// Every kept key's UTF-8 bytes, one after another, and where each ends:
        /// a lookup compares the bytes it already holds to hash the key.
        let bytes: ContiguousArray<UInt8>
        let ends: ContiguousArray<Int32>
        let slots: ProbedSlots
        /// Positions by key, when keys collided too much for the slots.
        let byKey: [String: Int]?
        /// Where among the keys given each kept one was, when a key was
        /// repeated (only its first is kept); `nil` when every key is kept.
        let kept: [Int]?

        /// Places the keys of `members` in order, read by index: a member
        /// handed over whole would be copied, its value's reference counted.
        init(keysOf members: [JSONValue.Member]) {
            self.init(members.indices.lazy.map { members[$0].key })
        }

        /// Places `given` in order; the first of a repeated key is kept.
        init(_ given: some Collection<String>) {
            var keys: [String] = []
            keys.reserveCapacity(given.count)
            var kept: [Int]?
            var slots = ProbedSlots(atLeast: max(8, given.count * 4), maximumProbes: FeatureTable.maximumProbes)
            var byKey: [String: Int]?
            for (position, key) in given.enumerated() {
                var repeated = false
                if byKey == nil {
                    // The same key is the same bytes, as JavaScript compares property names.
                    switch slots.place(
                        FeatureTable.hash(key),
                        at: keys.count,
                        isSame: { JavaScriptSemantics.sameName(keys[$0], key) }
                    ) {
                    case .placed: break
                    case .found: repeated = true
                    case .tooFar:
                        byKey = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                    }
                }
                if !repeated, byKey != nil {
                    if byKey![key] == nil { byKey![key] = keys.count } else { repeated = true }
                }
                guard !repeated else {
                    // The first repeated key: every position before it was kept.
                    if kept == nil { kept = Array(0..<position) }
                    continue
                }
                keys.append(key)
                kept?.append(position)
            }
            var bytes = ContiguousArray<UInt8>()
            var ends = ContiguousArray<Int32>()
            bytes.reserveCapacity(keys.reduce(0) { $0 + $1.utf8.count })
            ends.reserveCapacity(keys.count)
            for key in keys {
                // From the bytes in place: appending the UTF-8 view took 165 instructions a key.
                key.withUTF8Bytes { bytes.append(contentsOf: $0) }
                ends.append(Int32(bytes.count))
            }
            self.bytes = bytes
            self.ends = ends
            self.slots = slots
            self.byKey = byKey
            self.kept = kept
        }
    }

    /// The features and their keys side by side, in payload order, and the
    /// keys' slots (``Keys``).
    private final class Storage: Sendable {
        let keyBytes: ContiguousArray<UInt8>
        let keyEnds: ContiguousArray<Int32>
        let features: [GrowthBookFeature]
        let slots: ProbedSlots
        /// Positions by key, when keys collided too much for the slots.
        let byKey: [String: Int]?
        let rolloutAttributes: [String]
        let rolloutSlots: [Int32]

        init(keys: Keys, features given: [GrowthBookFeature]) {
            let features = keys.kept.map { $0.map { given[$0] } } ?? given
            var rolloutAttributes: [String] = []
            var rolloutSlots: [Int32] = []
            // A plain feature has no rollouts.
            for feature in features where feature.isTurnFree && !feature.isPlain {
                for rule in feature.rules {
                    guard let forced = rule.forcedValue, forced.hashesUsers else { continue }
                    let attribute = GrowthBookHash.attribute(forced.hashAttribute)
                    if !rolloutAttributes.contains(attribute) {
                        rolloutAttributes.append(attribute)
                        rolloutSlots.append(forced.hashSlot)
                    }
                }
            }
            self.keyBytes = keys.bytes
            self.keyEnds = keys.ends
            self.features = features
            self.slots = keys.slots
            self.byKey = keys.byKey
            self.rolloutAttributes = rolloutAttributes
            self.rolloutSlots = rolloutSlots
        }

        /// The position of the feature under `key`, if any.
        func position(ofKey key: String) -> Int? {
            if let byKey { return byKey[key] }
            // The key's bytes are read once, to hash it and to compare it:
            // apart, hashing and comparing each read them through a closure of its own.
            let found =
                key.utf8.withContiguousStorageIfAvailable { position(of: $0) }
                ?? {
                    // A string without contiguous UTF-8 (bridged): its bytes copied once, found the same way.
                    // Spelled out, not `withUTF8Bytes`: through it, the lookup took 48 more instructions.
                    var copy = key
                    return copy.withUTF8 { position(of: $0) }
                }()
            return found
        }

        /// The position of the key whose UTF-8 bytes are `bytes`.
        @inline(__always)
        private func position(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            slots.find(NameHash.key(ofBytes: bytes).hash) { hasKey(at: $0, bytes) }
        }

        /// Whether the key at `position` is `bytes`.
        @inline(__always)
        private func hasKey(at position: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = position == 0 ? 0 : Int(keyEnds[position - 1])
            let end = Int(keyEnds[position])
            guard end - start == bytes.count else { return false }
            return keyBytes.withUnsafeBufferPointer { stored in
                FeatureTable.sameBytes(
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: stored[start..<end])),
                    UnsafeRawBufferPointer(bytes)
                )
            }
        }
    }

    /// Whether two keys of the same length are the same bytes: a word at a
    /// time, then the bytes left over four, two and one at a time, as the
    /// hash reads them (``NameHash/tail(of:from:)``). Inline: a key is a
    /// word or two, shorter than a call to `memcmp`.
    @inline(__always)
    static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
            a.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        let count = a.count
        var offset = 0
        while count - offset >= 8 {
            guard same(UInt64.self, at: offset) else { return false }
            offset += 8
        }
        if count - offset >= 4 {
            guard same(UInt32.self, at: offset) else { return false }
            offset += 4
        }
        if count - offset >= 2 {
            guard same(UInt16.self, at: offset) else { return false }
            offset += 2
        }
        return offset == count || same(UInt8.self, at: offset)
    }

    /// The key's hash (``NameHash``).
    static func hash(_ key: String) -> UInt32 { NameHash.of(key) }
}
