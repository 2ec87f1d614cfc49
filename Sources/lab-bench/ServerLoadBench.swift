import ArgumentParser
import Foundation
import LabDrivers
import Laboratory
import LaboratoryRuntime

/// `lab-bench server-load`: `lab serve` under a crowd, on loopback.
///
/// Holds `--idle` connections that say nothing and `--streams` streams that
/// never read, on a payload of `--payload-megabytes`, while the payload
/// changes every quarter second and one normal client asks for it in a loop.
/// Reports the server's peak memory (goal: under 300 MB) and the normal
/// client's latency (goal: p99 under 50 ms).
/// Run it in release: `swift run -c release lab-bench server-load`.
struct ServerLoadBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-load",
        abstract: "Benchmark lab serve holding idle connections and streams that never read."
    )

    @Option(help: "Connections that open and say nothing.") var idle = 2_000
    @Option(help: "Streams that never read.") var streams = 500
    @Option(help: "The payload's size.") var payloadMegabytes = 2
    @Option(help: "Seconds the normal client asks for.") var seconds = 20.0

    func run() throws {
        let scratch = try ScratchFolder("load")
        defer { scratch.remove() }
        let folder = scratch.path
        let payload = folder + "/payload.json"
        try LoadFixtures.payload(bytes: payloadMegabytes << 20).write(
            toFile: payload,
            atomically: true,
            encoding: .utf8
        )
        guard let demo = DemoCatalog.locate() else { throw ValidationError("the demo catalog was not found") }
        let state = folder + "/state.sqlite"
        let server = try ServedProcess(state: state, arguments: ["--catalog", demo, "--growthbook", payload])
        defer { server.stop() }
        print("lab serve on \(server.port): \(idle) idle connections, \(streams) streams that never read")
        print(String(format: "  at start:              %8.1f MB", Double(server.residentKilobytes()) / 1024))

        var crowd: [LoopbackConnection] = []
        defer { for connection in crowd { connection.close() } }
        for _ in 0..<idle { crowd.append(try LoopbackConnection(port: server.port)) }
        for _ in 0..<streams {
            let stream = try LoopbackConnection(port: server.port, receiveBuffer: 4096)
            stream.send("GET /sub/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            crowd.append(stream)
        }

        let catalog = try CatalogDecoder().decode(contentsOf: demo)
        let console = try LocalLaboratory(
            catalogs: [(path: demo, catalog: catalog)],
            statePath: state,
            debugSource: true,
            app: nil
        )
        guard let debug = console.debug else { throw ValidationError("the console's wiring has no debug source") }
        let normal = try LoopbackConnection(port: server.port)
        defer { normal.close() }
        let request = "GET /api/features/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        var latencies: [Double] = []
        var failures = 0
        var round = 0
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        var nextChange = clock.now
        while clock.now < end {
            if clock.now >= nextChange {
                round += 1
                try debug.force(variant: round % 2 == 0 ? "ButtonColorBlue" : "ButtonColorDarkGray", of: "ButtonColor")
                nextChange = clock.now + .milliseconds(250)
            }
            let start = clock.now
            if normal.exchange(request).status == 200 {
                let elapsed = clock.now - start
                latencies.append(
                    Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                )
            } else {
                failures += 1
            }
        }
        latencies.sort()
        let percentile = { (p: Double) in
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        print("  \(round) payload changes, \(latencies.count) requests answered, \(failures) failed")
        print(
            String(
                format: "  normal client latency: p50 %6.2f ms, p99 %6.2f ms (goal < 50), max %6.2f ms",
                percentile(0.5),
                percentile(0.99),
                latencies.last ?? .nan
            )
        )
        print(String(format: "  server memory now:     %8.1f MB", Double(server.residentKilobytes()) / 1024))
        print(
            String(
                format: "  server memory peak:    %8.1f MB (goal < 300)",
                Double(server.peakResidentKilobytes()) / 1024
            )
        )
    }
}
