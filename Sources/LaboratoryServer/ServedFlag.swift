import Laboratory

/// What one assignment key gives this device, as `lab serve` answers for it:
/// the value the manager serves, or the baseline's when no experiment with the
/// key is active, and why (in OpenFeature's reason names).
public struct ServedFlag: Sendable, Hashable {
    /// OpenFeature's evaluation reasons, the ones OFREP clients accept.
    public enum Reason: String, Sendable, Hashable, Encodable {
        /// A person forced the variant (console, `lab force`, overrides file).
        case `static` = "STATIC"
        /// Drawn by weight or hashed into a variant.
        case split = "SPLIT"
        /// A whitelist, a resolved experiment or GrowthBook targeting put the device here.
        case targetingMatch = "TARGETING_MATCH"
        /// No experiment with the key is active: the baseline.
        case `default` = "DEFAULT"
        /// A person forced the experiment `Inactive`: the baseline.
        case disabled = "DISABLED"
    }

    public var key: String
    public var value: AssignmentValue
    public var variant: String
    public var experiment: String
    public var source: String
    public var forced: Bool
    public var reason: Reason
}
