/// A number in [0, 1) drawn once per device and persisted.
///
/// An experiment with an ``Experiment/activeTokenRange`` is active only where
/// the token falls inside it, so experiments with disjoint ranges never run
/// on the same device and may share keys.
public struct ActiveExperimentsToken: Sendable, Hashable, Codable {
    /// The token, in [0, 1).
    public var value: Double

    /// Makes a token; values outside [0, 1) are clamped into it.
    public init(_ value: Double) {
        self.value = min(max(value, 0), 1.0.nextDown)
    }

    /// Draws a new token.
    public static func draw(using random: any RandomSource) -> ActiveExperimentsToken {
        ActiveExperimentsToken(random.nextUnit())
    }
}
