import ArgumentParser
import Foundation

/// Exit statuses that scripts can tell apart (from sysexits.h).
enum ExitStatus {
    /// A catalog is malformed or breaks a rule.
    static let dataError: Int32 = 65
    /// A catalog cannot be read.
    static let noInput: Int32 = 66
    /// The state file cannot be opened or used.
    static let ioError: Int32 = 74
}

/// Prints `lab: message` on standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("lab: \(message)\n".utf8))
}

/// Writes a line to standard output and flushes it, for `--follow` readers.
func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
