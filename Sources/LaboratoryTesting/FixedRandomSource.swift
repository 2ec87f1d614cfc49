import Laboratory

/// Always the same number: for tests that need one exact token or draw.
public struct FixedRandomSource: RandomSource {
    /// The number every draw gets, in [0, 1).
    public var value: Double

    /// A source that always gives `value`.
    public init(_ value: Double) {
        self.value = value
    }

    public func nextUnit() -> Double { value }
}
