/// GrowthBook's hash: FNV-1a 32-bit over UTF-16 code units, in the two
/// versions GrowthBook's SDKs agree on, mapping a seed and a value into [0, 1).
package enum GrowthBookHash {
    /// FNV-1a's starting value.
    private static let offsetBasis: UInt32 = 0x811C_9DC5

    /// One step of FNV-1a: `hash` continued over one code unit.
    @inline(__always)
    private static func step(_ hash: UInt32, _ unit: UInt32) -> UInt32 {
        (hash ^ unit) &* 16_777_619
    }

    /// FNV-1a, 32 bits, over UTF-16 code units (as JavaScript's `charCodeAt`).
    package static func fnv32a(_ text: String) -> UInt32 {
        fnv32a(text, continuing: offsetBasis)
    }

    /// FNV-1a continued over `text`: hashing `b` after `a` equals hashing `a + b`,
    /// without building the joined string.
    static func fnv32a(_ text: String, continuing start: UInt32) -> UInt32 {
        // ASCII text (ids, seeds, feature keys) is hashed from its UTF-8
        // bytes, which are its UTF-16 units; any byte with the high bit set
        // sends the text to the UTF-16 loop instead.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = start
            var bits: UInt8 = 0
            for byte in bytes {
                bits |= byte
                hash = step(hash, UInt32(byte))
            }
            return bits < 0x80 ? hash : nil
        }
        if let ascii, let ascii { return ascii }
        var hash = start
        for unit in text.utf16 { hash = step(hash, UInt32(unit)) }
        return hash
    }

    /// The attribute a rule, experiment or rollout hashes: `hashAttribute || "id"`,
    /// so a missing or empty one is `id`.
    package static func attribute(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "id" }
        return name
    }

    /// The hash of `value` with `seed` into [0, 1); `nil` for an unknown version.
    package static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1: return Double(fnv32a(seed, continuing: fnv32a(value)) % 1000) / 1000
        case 2:
            let inner = fnv32a(value, continuing: fnv32a(seed))
            return Double(fnv32a(decimal: inner) % 10000) / 10000
        default: return nil
        }
    }

    /// ``hash(seed:value:version:)`` from what is known ahead: the seed's
    /// units and FNV-1a state (``Seed``) and the value's FNV-1a state, so
    /// that a version 1 hash walks only the seed, and a version 2 hash only the
    /// value. Inlined into the evaluator's walk (see its `subject(_:slot:fallback:)`).
    @inline(__always)
    static func hash(seed: Seed, value: HashedText, version: Int) -> Double? {
        switch version {
        case 1: return hash(bucket: bucket(seed: seed, value: value))
        case 2:
            let inner = fnv32a(value.text, continuing: seed.state)
            return Double(fnv32a(decimal: inner) % 10000) / 10000
        default: return nil
        }
    }

    /// How many buckets a version 1 hash has.
    static let bucketsOfVersion1: UInt32 = 1000

    /// The version 1 bucket of `value` with `seed`: the hash is ``hash(bucket:)``.
    static func bucket(seed: Seed, value: HashedText) -> UInt32 {
        var hash = value.state
        if seed.shortCount >= 0 {
            withUnsafeBytes(of: seed.short) { bytes in
                for offset in 0..<Int(seed.shortCount) { hash = step(hash, UInt32(bytes[offset])) }
            }
        } else {
            for unit in seed.units { hash = step(hash, UInt32(unit)) }
        }
        return hash % bucketsOfVersion1
    }

    /// The version 1 hash of a bucket, in [0, 1).
    static func hash(bucket: UInt32) -> Double {
        Double(bucket) / Double(bucketsOfVersion1)
    }

    /// A seed as hashing reads it: its UTF-16 code units, and its FNV-1a state.
    ///
    /// A short ASCII seed (the usual one: a feature's or an experiment's
    /// key) keeps its units as its bytes, in place. A list of units for every
    /// rollout, experiment and namespace decoded was 1,002 of the 16,744
    /// allocations of a payload of 1,000 features, and decode + index took 4 %
    /// longer on one core. Walking the text's own bytes instead
    /// (``fnv32a(_:continuing:)``) made an evaluation 69 ns, not 64.
    struct Seed: Sendable, Hashable {
        /// Up to ``shortCapacity`` bytes, in order.
        fileprivate typealias ShortBytes = (UInt64, UInt64, UInt64, UInt64)

        // What hashing reads first, together; the text last.
        let state: UInt32
        /// How many of ``short``'s bytes are the seed's; -1 when the seed is in ``units``.
        fileprivate let shortCount: Int32
        /// A short ASCII seed's bytes.
        fileprivate let short: ShortBytes
        /// The UTF-16 code units of a seed that is not short ASCII; empty otherwise.
        fileprivate let units: [UInt16]
        let text: String

        /// The most bytes a short seed keeps in place.
        static let shortCapacity = MemoryLayout<ShortBytes>.size

        init(_ text: String) {
            self.text = text
            state = GrowthBookHash.fnv32a(text)
            var short: ShortBytes = (0, 0, 0, 0)
            let shortCount = text.withUTF8Bytes { bytes in
                guard bytes.count <= Self.shortCapacity, bytes.allSatisfy({ $0 < 0x80 }) else { return -1 }
                withUnsafeMutableBytes(of: &short) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
                return bytes.count
            }
            self.short = short
            self.shortCount = Int32(shortCount)
            units = shortCount < 0 ? Array(text.utf16) : []
        }

        // By the text alone: the rest is made from it.
        static func == (a: Seed, b: Seed) -> Bool { a.text == b.text }
        func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    /// A value as hashing reads it (what JavaScript prints for it), and its FNV-1a state.
    struct HashedText: Sendable {
        let text: String
        let state: UInt32

        init(_ text: String) {
            self.text = text
            state = GrowthBookHash.fnv32a(text)
        }
    }

    /// FNV-1a over the decimal digits of `number`, as `String(number)` writes them.
    private static func fnv32a(decimal number: UInt32) -> UInt32 {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(rest % 10) + 0x30
                rest /= 10
                count += 1
            } while rest > 0
        }
        var hash = offsetBasis
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: count - 1, through: 0, by: -1) { hash = step(hash, UInt32(buffer[index])) }
        }
        return hash
    }
}
