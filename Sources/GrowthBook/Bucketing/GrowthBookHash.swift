/// GrowthBook's hash: FNV-1a 32-bit over UTF-16 code units, in the two
/// versions GrowthBook's SDKs agree on, mapping a seed and a value into [0, 1).
public enum GrowthBookHash {
    /// FNV-1a, 32 bits, over UTF-16 code units (as JavaScript's `charCodeAt`).
    public static func fnv32a(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for unit in text.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 16_777_619
        }
        return hash
    }

    /// The hash of `value` with `seed` into [0, 1); `nil` for an unknown version.
    public static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1: return Double(fnv32a(value + seed) % 1000) / 1000
        case 2: return Double(fnv32a(String(fnv32a(seed + value))) % 10000) / 10000
        default: return nil
        }
    }
}
