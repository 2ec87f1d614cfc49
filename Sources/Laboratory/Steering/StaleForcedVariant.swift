/// A forced variant that is not applied, and why.
public struct StaleForcedVariant: Sendable, Hashable {
    public var forcedVariant: ForcedVariant
    public var reason: String
}
