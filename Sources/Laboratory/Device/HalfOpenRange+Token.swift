import GrowthBook

extension HalfOpenRange {
    /// Whether a device with this token is inside the range.
    public func contains(_ token: ActiveExperimentsToken) -> Bool {
        contains(token.value)
    }
}
