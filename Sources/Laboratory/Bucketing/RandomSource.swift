/// Where draws get their randomness; injected so tests are exact.
public protocol RandomSource: Sendable {
    /// A number in [0, 1).
    func nextUnit() -> Double
}

/// Randomness from the system generator, for real devices.
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func nextUnit() -> Double {
        Double.random(in: 0..<1)
    }
}

/// A repeatable generator (SplitMix64) for tests and simulations.
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    // Guarded by `lock`: draws may come from any thread.
    private var state: UInt64
    private let lock = Lock()

    public init(seed: UInt64) {
        state = seed
    }

    public func nextUnit() -> Double {
        let bits = lock.withLock { () -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // The top 53 bits make an evenly spaced double in [0, 1).
        return Double(bits >> 11) * 0x1.0p-53
    }
}

/// Always the same number: for tests that need one exact token or draw.
public struct FixedRandomSource: RandomSource {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    public func nextUnit() -> Double { value }
}
