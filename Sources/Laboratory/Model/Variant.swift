/// A named set of assignments, one per key of its experiment.
public struct Variant: Sendable, Hashable, Codable {
    /// UpperCamelCase name, unique within the experiment.
    public var name: String
    /// Relative weight of the variant when a device draws one (2:1:1 gives 50/25/25 %).
    public var weight: Double
    /// Key → value, exactly the experiment's keys.
    public var assignments: VariantAssignments

    /// A variant; `weight` is its share of the draws against its siblings' weights.
    public init(name: String, weight: Double = 1, assignments: VariantAssignments) {
        self.name = name
        self.weight = weight
        self.assignments = assignments
    }
}
