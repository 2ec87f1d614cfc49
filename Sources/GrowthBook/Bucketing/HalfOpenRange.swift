/// A part of [0, 1): an experiment's active token range, or a GrowthBook
/// variation's bucket range.
///
/// The range is half-open, `lower <= value < upper`, so two experiments with
/// ranges that touch (`[0, 0.5]` and `[0.5, 1]`) are never active on the same
/// device; an upper bound of 1 includes every token and hash up to it, as
/// both are below 1. Written as `[lower, upper]` in catalogs and payloads.
public struct HalfOpenRange: Sendable, Hashable, Codable {
    /// The first hash in the range.
    public var lower: Double
    /// The first hash past the range.
    public var upper: Double

    /// The range [lower, upper).
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether a token value is inside the range.
    public func contains(_ value: Double) -> Bool {
        lower <= value && value < upper
    }

    /// Whether some token could fall in both ranges.
    public func overlaps(_ other: HalfOpenRange) -> Bool {
        max(lower, other.lower) < min(upper, other.upper)
    }

    /// The part of [0, 1) the range covers.
    public var share: Double { max(0, upper - lower) }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        lower = try container.decode(Double.self)
        upper = try container.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(lower)
        try container.encode(upper)
    }
}

extension HalfOpenRange: CustomStringConvertible {
    public var description: String { "[\(lower), \(upper))" }
}
