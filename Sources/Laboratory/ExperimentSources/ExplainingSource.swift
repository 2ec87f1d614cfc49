/// A source that says, step by step, how it decides its experiments (a
/// GrowthBook payload's rules), for `lab explain` and the console.
public protocol ExplainingSource: ExperimentSource {
    /// How the source decides each of `experiments` (all when `nil`) on
    /// this device, step by step. A console asks for the steps of the
    /// experiment it shows, when shown.
    func decisionSteps(for experiments: [String]?) -> [String: [Explanation.Step]]
}

extension ExplainingSource {
    public var explaining: (any ExplainingSource)? { self }
}
