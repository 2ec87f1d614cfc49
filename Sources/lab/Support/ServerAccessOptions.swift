import ArgumentParser
import Foundation
import Laboratory
import LaboratoryRuntime
import LaboratoryServer

/// Who besides apps with a key may reach a server `lab` starts (`lab serve`, `lab console --serve`).
struct ServerAccessOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "A name apps reach the server by besides its address and this machine's name (repeatable): "
                + "a DNS name or a proxy's; requests naming any other Host are refused.",
            valueName: "name"
        )
    )
    var hosts: [String] = []

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "A web origin whose pages may post events, such as http://qa.example:8080 (repeatable); "
                + "pages of other origins may read but not write. The demo page's own origin always may.",
            valueName: "origin"
        )
    )
    var origins: [String] = []

    @Option(
        name: .customLong("tokens"),
        help: ArgumentHelp(
            "A JSON file from tester name to steering token ({\"ana\": \"…\"}): who may force, unforce, reset and "
                + "import through the steering API, recorded by name. Without it only a loopback server may be steered.",
            valueName: "file"
        )
    )
    var tokensPath: String?

    func validate() throws {
        for origin in origins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--allow-origin takes an origin such as http://host:port, got \"\(origin)\"")
        }
        for host in hosts where host.isEmpty || host.contains("/") || host.contains(" ") {
            throw ValidationError("--allow-host takes a host name without scheme or path, got \"\(host)\"")
        }
    }

    /// The testers of `--tokens`, or `nil`; an unreadable or malformed file ends the command.
    func tokens() throws -> SteeringTokens? {
        guard let tokensPath else { return nil }
        let data: Data
        do {
            data = try FileContents.read(tokensPath)
        } catch {
            printError(error.description)
            throw ExitCode(ExitStatus.noInput)
        }
        do {
            return try SteeringTokens(decoding: data, file: tokensPath)
        } catch {
            printError(TerminalText.visible(error.description))
            throw ExitCode(ExitStatus.dataError)
        }
    }

    /// The policy of a server listening on `host`.
    func policy(listening host: String) -> AccessPolicy {
        LabServer.access(listening: host, hosts: hosts, origins: origins)
    }
}
