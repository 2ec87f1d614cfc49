/// An experiment: the keys it controls and the variants that assign them.
public struct Experiment: Sendable, Hashable {
    /// UpperCamelCase name, unique within its source.
    public var name: String
    /// The keys every variant assigns.
    public var keys: [String]
    /// The variants, in catalog order.
    public var variants: [Variant]
    /// The variant that describes what the app does when the experiment is not active.
    public var baseline: String
    /// Where the experiment runs; `nil` runs it on every device.
    public var activeTokenRange: TokenRange?

    public init(
        name: String, keys: [String], variants: [Variant], baseline: String,
        activeTokenRange: TokenRange? = nil
    ) {
        self.name = name
        self.keys = keys
        self.variants = variants
        self.baseline = baseline
        self.activeTokenRange = activeTokenRange
    }

    /// The variant with this name, if the experiment has one.
    public func variant(named name: String) -> Variant? {
        variants.first { $0.name == name }
    }

    /// The share of draws the variant gets, from 0 to 1.
    public func share(of variant: Variant) -> Double {
        let total = variants.reduce(0) { $0 + $1.weight }
        return total > 0 ? variant.weight / total : 0
    }
}
