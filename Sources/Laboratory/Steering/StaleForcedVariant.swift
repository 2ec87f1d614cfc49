/// A forced variant that is not applied, and why.
public struct StaleForcedVariant: Sendable, Hashable, Codable {
    /// The forced variant, as stored.
    public var forcedVariant: ForcedVariant
    /// Why it no longer applies (the experiment or variant is gone).
    public var reason: String
}
