import ArgumentParser
import Foundation
import Laboratory

/// `--connect URL [--token T]`: work through a `lab serve` (its steering API)
/// instead of a state file on this machine.
struct ConnectOptions: ParsableArguments {
    @Option(
        name: .customLong("connect"),
        help: ArgumentHelp(
            "Work through the lab serve at this address (http://staging.example:3100) instead of a state file.",
            valueName: "url"
        )
    )
    var url: String?

    @Option(
        name: .customLong("token"),
        help: ArgumentHelp(
            "With --connect: your steering token (default: $LAB_STEERING_TOKEN).",
            valueName: "token"
        )
    )
    var token: String?

    func validate() throws {
        guard let url else {
            if token != nil { throw ValidationError("--token goes with --connect") }
            return
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            parsed.host != nil
        else {
            throw ValidationError(
                "--connect takes a server's address such as http://staging.example:3100, got \"\(url)\""
            )
        }
    }

    /// The connection, when `--connect` is given.
    var connection: HTTPSteeringConnection? {
        guard let url, let base = URL(string: url) else { return nil }
        return HTTPSteeringConnection(
            base: base,
            token: token ?? ProcessInfo.processInfo.environment["LAB_STEERING_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}
