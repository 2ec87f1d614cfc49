import Laboratory
import Synchronization

/// The benchmarks' randomness (console starts, `lab serve`'s rebuild): a device token that activates every
/// experiment of the generated catalogs (a third of them run only on
/// tokens below 0.5), then variants drawn from a fixed sequence. With the
/// system's randomness half of the fresh starts drew a token that left a
/// third of the experiments out, and a median of five measured which half
/// came up more often: now every fresh start draws 10,000 variants and
/// records 20,000 events, as its line says.
final class BenchRandomSource: RandomSource {
    /// A SplitMix64 state; the first unit drawn is the device's token.
    private let state = Atomic<UInt64>(0)
    private let started = Atomic<Bool>(false)

    /// The token every start gets: inside every generated range.
    static let token = 0.25

    func nextUnit() -> Double {
        if !started.exchange(true, ordering: .relaxed) { return Self.token }
        var z = state.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
