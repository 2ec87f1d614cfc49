import Laboratory
import Synchronization

/// A repeatable generator (SplitMix64) for tests and simulations.
public final class SeededRandomSource: RandomSource, Sendable {
    /// Draws may come from any thread.
    private let state: Mutex<UInt64>

    /// A generator whose numbers follow from `seed` alone: the same seed, the same draws.
    public init(seed: UInt64) {
        state = Mutex(seed)
    }

    public func nextUnit() -> Double {
        let bits = state.withLock { state -> UInt64 in
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
