/// Where a rule is in a GrowthBook payload: its feature, and its position
/// among that feature's rules.
struct RulePosition: Hashable, Sendable {
    /// The key of the feature the rule belongs to.
    var feature: String
    /// The rule's index in the feature's `rules`.
    var index: Int
}
