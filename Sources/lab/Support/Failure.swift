import ArgumentParser
import Foundation
import Laboratory

/// Exit statuses that scripts can tell apart (from sysexits.h).
enum ExitStatus {
    /// A catalog is malformed or breaks a rule.
    static let dataError: Int32 = 65
    /// A catalog cannot be read.
    static let noInput: Int32 = 66
    /// The state file cannot be opened or used, or output cannot be written.
    static let ioError: Int32 = 74
    /// A server `--connect` names could not be reached (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
}

/// Prints `lab: message` on standard error.
func printError(_ message: String) {
    StandardStreams.write("lab: " + TerminalText.visible(message) + "\n", to: STDERR_FILENO)
}

/// Writes a line to standard output at once, for `--follow` readers; text
/// from catalogs, payloads and the state file cannot drive the terminal or
/// start a line of its own.
func printLine(_ line: String) {
    StandardStreams.write(TerminalText.line(line) + "\n", to: STDOUT_FILENO)
}

/// Writes lines, each as ``printLine(_:)`` does.
func printLines(_ lines: [String]) {
    StandardStreams.write(lines.map { TerminalText.line($0) + "\n" }.joined(), to: STDOUT_FILENO)
}
