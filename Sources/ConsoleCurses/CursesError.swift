/// Why the console could not take over the terminal.
package enum CursesError: Error, CustomStringConvertible, Equatable {
    /// `TERM` is not set.
    case noTerminalType
    /// ncurses has no description for `TERM`.
    case unknownTerminal(String)
    /// Standard input or output is not a terminal.
    case notATerminal
    /// The terminal cannot move its cursor (`TERM=dumb`, a printing terminal).
    case cannotAddressCursor(String)

    package var description: String {
        switch self {
        case .noTerminalType:
            return "TERM is not set: run lab console in a terminal, or set TERM (for example TERM=xterm-256color)"
        case .unknownTerminal(let name):
            return "unknown terminal type \"\(name)\" (TERM): no terminfo entry; try TERM=xterm-256color"
        case .cannotAddressCursor(let name):
            return "terminal type \"\(name)\" (TERM) cannot move the cursor, which the console needs; "
                + "use lab's other commands here, or a terminal such as TERM=xterm-256color"
        case .notATerminal:
            return "lab console needs a terminal: standard input and output must not be redirected"
        }
    }
}
