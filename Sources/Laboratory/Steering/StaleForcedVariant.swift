/// A forced variant that is not applied, and why.
public struct StaleForcedVariant: Sendable, Hashable, Codable {
    public var forcedVariant: ForcedVariant
    public var reason: String
}
