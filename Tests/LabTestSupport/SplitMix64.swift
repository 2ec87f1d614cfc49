/// SplitMix64: the same numbers for the same seed on every machine, for
/// tests that generate their inputs and name the seed when they fail.
public struct SplitMix64: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `range`.
    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + below(range.count) }

    /// A number in [0, 1), evenly spaced.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One of `items`, which must not be empty.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
