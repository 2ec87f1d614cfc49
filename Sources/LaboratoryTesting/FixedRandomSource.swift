import Laboratory

/// Always the same number: for tests that need one exact token or draw.
public struct FixedRandomSource: RandomSource {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    public func nextUnit() -> Double { value }
}
