/// What the console reads and changes: the live framework, or a fake in tests.
public protocol ConsoleEnvironment: Sendable {
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
}

extension ConsoleEnvironment {
    public func reloadEditedCatalogs() async -> (reloaded: Bool, problems: [String]) { (false, []) }
}
