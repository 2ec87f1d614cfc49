/// Where draws get their randomness; injected so tests are exact.
public protocol RandomSource: Sendable {
    /// A number in [0, 1).
    func nextUnit() -> Double
}

/// Randomness from the system generator, for real devices.
public struct SystemRandomSource: RandomSource {
    /// The system's generator.
    public init() {}

    public func nextUnit() -> Double {
        Double.random(in: 0..<1)
    }
}
