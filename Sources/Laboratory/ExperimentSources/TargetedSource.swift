/// A source whose experiments depend on the device's attributes: it takes
/// them, and says which of them its targeting reads.
public protocol TargetedSource: ExperimentSource {
    /// Takes the device's attributes as they are now (its own, the stored
    /// overrides, a run's): they replace those given before, so one taken
    /// away is gone. A local source takes `userId` as the logged-in user.
    func useAttributes(_ attributes: [String: String])

    /// The attributes the source's targeting reads, each with the
    /// experiments that read it: what QA may set to see them run.
    var targetingAttributes: [String: [String]] { get }

    /// Attributes the source supplies itself when nobody gives them
    /// (GrowthBook's `id`, the device id).
    var defaultAttributes: [String: String] { get }
}

extension TargetedSource {
    public var targeting: (any TargetedSource)? { self }

    public var defaultAttributes: [String: String] { [:] }
}
