import ArgumentParser
import Foundation
import LaboratoryServer

/// `lab serve`: the state file for GrowthBook SDKs and OpenFeature OFREP providers.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the state file to GrowthBook SDKs and OpenFeature OFREP providers in any language.",
        discussion: """
            Point an app's GrowthBook apiHost, or its OFREP provider's base URL, at the printed URL: \
            it gets what the console shows, and within a second what QA forces. SDKs with remoteEval \
            post their user to /api/eval/<key> and get the payload evaluated for it. With --client-key, \
            only that key may read and report (others get 401), as with GrowthBook's proxy; OFREP \
            providers send it as Authorization: Bearer <key> or X-API-Key, the demo page as ?key=. \
            Requests must name this server in Host, pages of other origins may read but not post, \
            and each client may post a bounded number of events a second.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var access: ServerAccessOptions
    @Option(help: "The address to listen on; anything but loopback is reachable from other machines.")
    var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).") var port = 3100
    @Flag(help: "Print a line for every request.") var verbose = false
    @Option(help: "Seconds between fetches of a --growthbook URL.") var refreshInterval: Int = 30

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard (1...86_400).contains(refreshInterval) else {
            throw ValidationError("--refresh-interval must be from 1 to 86400 seconds (a day), not \(refreshInterval)")
        }
    }

    func run() async throws {
        let session = try LabSession.open(global, refreshInterval: refreshInterval)
        let hub = try session.run {
            try ServedStateHub(laboratory: session.laboratory, report: { line in printError(line) })
        }
        var log: (@Sendable (String) -> Void)?
        if verbose { log = { @Sendable line in printLine(line) } }
        // As GrowthBook's proxy: the key an upstream payload is fetched with is the one apps must use.
        let clientKeys = global.clientKey.map { [$0] } ?? []
        let server = LabServer(
            hub: hub,
            host: host,
            port: port,
            clientKeys: Set(clientKeys),
            log: log,
            demoPage: DemoPage.contents(),
            access: access.policy(listening: host),
            tokens: try access.tokens(),
            report: { line in printError(line) }
        )
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            printError(
                "warning: listening on \(host): apps on other machines can read and report to \(session.store.path)"
            )
        }
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let key = clientKeys.first ?? "any-key"
        let statePath = session.store.path
        // A new upstream payload reaches the apps' streams as a force does.
        let updater = session.laboratory.updater
        updater?.start()
        defer { updater?.stop() }
        do {
            try await server.run { port in
                let base = "http://\(host):\(port)"
                printLine("Serving \(statePath) on \(base)")
                printLine("  GrowthBook SDKs:   apiHost \(base), clientKey \(key) (remoteEval too)")
                printLine("  OpenFeature OFREP: \(base) (POST /ofrep/v1/evaluate/flags/{key})")
                printLine("  Exposures:         POST \(base)/events/\(key)")
                printLine("  Demo page:         \(base)/demo?key=\(key)")
            }
        } catch is CancellationError {
            return
        } catch {
            printError("cannot serve on \(host):\(port): \(ListenFailure.reason(error))")
            throw ExitCode.failure
        }
    }
}
