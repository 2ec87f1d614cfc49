/// One key and the value the app should use for it, with where it came from.
public struct Assignment: Sendable, Hashable, Codable {
    /// The lowerCamelCase key the app asks for, e.g. `subscribeScreenFontColor`.
    public var key: String
    /// What the app uses for the key while the experiment is active.
    public var value: AssignmentValue
    /// The experiment that assigns the key.
    public var experiment: String
    /// The experiment's active variant.
    public var variant: String
    /// The source the experiment comes from.
    public var source: String

    /// An assignment of `key` to `value` by `variant` of `experiment` in `source`.
    public init(key: String, value: AssignmentValue, experiment: String, variant: String, source: String) {
        self.key = key
        self.value = value
        self.experiment = experiment
        self.variant = variant
        self.source = source
    }
}
