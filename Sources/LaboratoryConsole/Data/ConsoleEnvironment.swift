import Laboratory

/// What the console reads and changes: the live framework, or a fake in tests.
package protocol ConsoleEnvironment: Sendable {
    /// Reads everything the console shows.
    func load() throws -> ConsoleData

    /// Whether anything shown may have changed since the last ``load()``:
    /// state written by any process, new events, or fetch statuses.
    func hasChanged() throws -> Bool

    /// Performs an effect.
    /// - Returns: a line for the status bar saying what happened.
    func perform(_ effect: ConsoleEffect) async throws -> String

    /// Reloads the catalog files edited since the last call.
    /// - Returns: whether any was reloaded, and why those that changed and
    ///   no longer load were kept as they were (one line each).
    func reloadEditedCatalogs() async -> (reloaded: Bool, problems: [String])

    /// How `source` decides `experiment` on this device, step by step, where
    /// the source says so itself (GrowthBook); empty where it does not.
    /// Asked for the experiment the detail pane shows, when ``load()`` left
    /// its steps out: one explanation per reload, not one per experiment.
    func decisionSteps(source: String, experiment: String) throws -> [Explanation.Step]
}

extension ConsoleEnvironment {
    package func reloadEditedCatalogs() async -> (reloaded: Bool, problems: [String]) { (false, []) }

    /// None: an environment whose ``load()`` reads every experiment's steps has no more to say.
    package func decisionSteps(source: String, experiment: String) throws -> [Explanation.Step] { [] }
}
