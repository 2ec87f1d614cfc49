import Laboratory

/// Something that happens to the console: input, fresh data, finished work.
package enum ConsoleAction: Sendable, Equatable {
    case input(TerminalInput)
    /// The environment was read again.
    case dataLoaded(ConsoleData)
    /// An effect finished, with a line for the status bar.
    case effectFinished(String, isError: Bool)
    /// Reading the environment failed.
    case loadFailed(String)
    /// An edited catalog no longer loads; the last good one stays.
    case catalogProblem(String)
    /// Edited catalogs loaded cleanly: a problem shown for an earlier edit is over.
    case catalogsRepaired
    /// How `source` decides `experiment`, for the data of `generation`.
    case explained(source: String, experiment: String, steps: [Explanation.Step], generation: Int)
}

extension ConsoleAction {
    /// Whether the action brings new data, which may take rows away.
    var bringsData: Bool {
        switch self {
        case .dataLoaded: return true
        case .input, .effectFinished, .loadFailed, .catalogProblem, .catalogsRepaired, .explained: return false
        }
    }
}
