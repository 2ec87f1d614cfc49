/// Something that happens to the console: input, fresh data, finished work.
public enum ConsoleAction: Sendable, Equatable {
    case input(TerminalInput)
    /// The environment was read again.
    case dataLoaded(ConsoleData)
    /// An effect finished, with a line for the status bar.
    case effectFinished(String, isError: Bool)
    /// Reading the environment failed.
    case loadFailed(String)
}
