import ArgumentParser
import Foundation
import Laboratory

/// How commands with `--connect` report what the server did or refused.
enum RemoteChange {
    /// Runs a change through the steering API and prints its sentence
    /// (warnings on standard error), or the JSON document `--json` wants.
    static func print(json: Bool, _ change: () throws -> Steering.Outcome) throws {
        try ChangeDocument.print(try reporting(change), json: json)
    }

    /// Runs `body`, turning a refusal or a lost connection into a message and a non-zero exit status.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as HTTPSteeringConnection.Failure {
            printError(TerminalText.visible(failure.description))
            // No answer at all is unavailable, as sysexits says; a refusal is a plain failure.
            throw failure.status == nil ? ExitCode(ExitStatus.unavailable) : ExitCode.failure
        }
    }
}
