import ArgumentParser
import ConsoleCurses
import Foundation
import LabDrivers
import Laboratory
import LaboratoryConsole
import LaboratoryRuntime
import Synchronization

/// `lab-bench server`: measures `lab serve` on loopback, in its own process.
///
/// Payload requests per second (with and without `If-None-Match`), OFREP
/// single evaluations per second, the time from a force to the `features`
/// event on 100 open streams, and the server's memory with 1,000 open streams.
/// Goals: 20,000 payload requests/s with 304s, 10,000 OFREP evaluations/s,
/// under 200 ms force-to-event, under 100 MB with 1,000 streams.
///
/// Then a team's server: 50 testers each with a scoped forced variant. Goals:
/// payload requests per second at least 80 % of the figure without scopes,
/// under 200 ms from a scoped force to the `features` event on the last of
/// 1,000 open streams, and a `--connect` console's first frame (snapshot
/// fetched, decoded, rendered and drawn) under 300 ms on loopback.
/// Run it in release: `swift run -c release lab-bench server`. Throughput is
/// measured with `wrk` (Debian's package) when it is installed, as a client
/// that costs little beside the server; else with keep-alive connections of
/// this process's own, which then bound the numbers.
struct ServerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Benchmark lab serve on loopback."
    )

    @Option(help: "Seconds each throughput run lasts.") var seconds = 5.0
    @Option(help: "Connections the throughput runs keep open at once.") var connections = 16

    func run() throws {
        let scratch = try ScratchFolder("server")
        defer { scratch.remove() }
        let folder = scratch.path
        let state = folder + "/state.sqlite"
        let server = try ServedProcess(state: state)
        defer { server.stop() }
        print("lab serve on \(server.port), state \(state)")

        let get = "GET /api/features/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let tag = try LoopbackConnection(port: server.port).exchange(get).header("etag") ?? ""
        let wrk = Self.wrk
        print(
            "throughput client: "
                + (wrk.map { "\($0), \(connections) connections" } ?? "this process (install wrk for better numbers)")
        )
        let runs: [(label: String, path: String, method: String, headers: [String: String])] = [
            ("payload requests:                   ", "/api/features/bench", "GET", [:]),
            ("payload requests with If-None-Match:", "/api/features/bench", "GET", ["If-None-Match": tag]),
            (
                "OFREP single evaluations:           ", "/ofrep/v1/evaluate/flags/subscribeButtonColor", "POST",
                ["Content-Type": "application/json"]
            ),
        ]
        var rates: [Double] = []
        for run in runs {
            let rate =
                try wrk.map {
                    try measure(wrk: $0, port: server.port, path: run.path, method: run.method, headers: run.headers)
                } ?? throughput(port: server.port, request: Self.request(run.method, run.path, run.headers))
            print(String(format: "%@ %8.0f /s", run.label, rate))
            rates.append(rate)
        }
        let latency = try forceToEvent(port: server.port, state: state, streams: 100)
        print(String(format: "force to features event, 100 streams: %7.1f ms (last of them)", latency * 1000))
        var open: [LoopbackConnection] = []
        for _ in 0..<1_000 {
            let stream = try LoopbackConnection(port: server.port)
            stream.send("GET /sub/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            open.append(stream)
        }
        for stream in open { _ = stream.read(until: "event: features") }  // each stream is open
        print(
            String(format: "server memory with 1,000 streams:    %8.1f MB", Double(server.residentKilobytes()) / 1024)
        )
        for stream in open { stream.close() }
        try team(server: server, state: state, bare: rates.first ?? 0, wrk: wrk)
    }

    /// The team part: 50 scoped forced variants, then the same measures.
    private func team(server: ServedProcess, state: String, bare: Double, wrk: String?) throws {
        guard let demo = DemoCatalog.locate() else { throw ValidationError("the demo catalog was not found") }
        let catalog = try CatalogDecoder().decode(contentsOf: demo)
        let laboratory = try LocalLaboratory(
            catalogs: [(path: demo, catalog: catalog)],
            statePath: state,
            debugSource: true,
            app: nil
        )
        guard let steering = laboratory.steering else { throw ValidationError("no debug source") }
        let get = "GET /api/features/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let before = try LoopbackConnection(port: server.port).exchange(get).header("etag")
        for tester in 0..<50 {
            let experiment = catalog.experiments[tester % catalog.experiments.count]
            let variant = experiment.variants[tester % experiment.variants.count]
            _ = try steering.force(
                variant.name,
                of: experiment.name,
                scope: Scope(attributes: ["id": "tester-\(tester)"]),
                tester: "tester-\(tester)"
            )
        }
        // The server has rebuilt once its payload's tag moves.
        _ = try Poll.until(seconds: 10, every: 0.01) {
            try LoopbackConnection(port: server.port).exchange(get).header("etag") != before ? true : nil
        }
        let rate =
            try wrk.map {
                try measure(wrk: $0, port: server.port, path: "/api/features/bench", method: "GET", headers: [:])
            }
            ?? throughput(port: server.port, request: Self.request("GET", "/api/features/bench", [:]))
        print(
            String(
                format: "payload requests, 50 scoped forces:  %8.0f /s (%.0f %% of the figure without)",
                rate,
                bare > 0 ? rate / bare * 100 : 0
            )
        )
        var streams: [LoopbackConnection] = []
        for _ in 0..<1_000 {
            let stream = try LoopbackConnection(port: server.port)
            stream.send("GET /sub/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(stream)
        }
        Self.drainOpeningEvents(streams)
        let start = Date()
        _ = try steering.force(
            "ButtonColorBlue",
            of: "ButtonColor",
            scope: Scope(attributes: ["id": "tester-new"]),
            tester: "tester-new"
        )
        let (last, received) = Self.lastArrival(on: streams, marker: "tester-new")
        for stream in streams { stream.close() }
        print(
            String(
                format: "scoped force to features event, 1,000 streams, 50 scopes: %7.1f ms (last of them; %d got it)",
                last.timeIntervalSince(start) * 1000,
                received
            )
        )
        var frames: [Double] = []
        for _ in 0..<5 { frames.append(try connectedFirstFrame(port: server.port)) }
        frames.sort()
        print(String(format: "--connect console first frame on loopback (median of 5): %7.1f ms", frames[2]))
    }

    /// Reads each stream's opening `features` event to its end, so what
    /// arrives next is the change.
    private static func drainOpeningEvents(_ streams: [LoopbackConnection]) {
        for stream in streams {
            _ = stream.read(until: "event: features")
            _ = stream.read(until: "\n\n")
        }
    }

    /// When the last of `streams` began to receive the change (its event's
    /// first line; pings do not count), and how many received one holding
    /// `marker`. Arrival is noted first for all and the content checked
    /// after, so searching 1,000 payloads in this process does not count as
    /// the server's time.
    private static func lastArrival(on streams: [LoopbackConnection], marker: String) -> (Date, Int) {
        var last = Date.distantPast
        for stream in streams where stream.read(until: "event: features", timeout: 10) { last = max(last, Date()) }
        let received = streams.filter { $0.read(until: marker) }.count
        return (last, received)
    }

    /// What `lab console --connect` does before its first frame: fetch the
    /// snapshot, decode it, build the screen and draw it (headless).
    private func connectedFirstFrame(port: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let connection = try LoopbackConnection(port: port)
        defer { connection.close() }
        connection.send(
            "GET /api/steering/v1/snapshot?events=500 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        let answer = connection.readAvailable(timeout: 30)
        guard let split = answer.range(of: "\r\n\r\n") else {
            throw ValidationError("no snapshot: \(answer.prefix(200))")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = Timestamp.decodingStrategy
        let snapshot = try decoder.decode(SteeringSnapshot.self, from: Data(answer[split.upperBound...].utf8))
        var data = ConsoleData(snapshot, origin: "http://127.0.0.1:\(port)", scope: .everyone)
        data.connection = .live
        let state = ConsoleState(size: TerminalSize(columns: 100, rows: 30), data: data)
        let terminal = try CursesTerminal.headless(size: state.size)
        terminal.draw(ConsoleRenderer.render(state))
        terminal.close()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// `wrk` on PATH, if installed.
    private static var wrk: String? { ExecutableSearch.find("wrk") }

    private static func request(_ method: String, _ path: String, _ headers: [String: String]) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + (method == "POST" ? "Content-Length: 2\r\n\r\n{}" : "\r\n")
    }

    /// Requests per second that `wrk` reaches (one thread, `connections` connections).
    private func measure(
        wrk: String,
        port: Int,
        path: String,
        method: String,
        headers: [String: String]
    ) throws
        -> Double
    {
        let script = NSTemporaryDirectory() + "lab-bench-\(UUID().uuidString).lua"
        var lua = "wrk.method = \"\(method)\"\n"
        if method == "POST" { lua += "wrk.body = \"{}\"\n" }
        for (name, value) in headers { lua += "wrk.headers[\"\(name)\"] = '\(value)'\n" }
        try lua.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let target = "http://127.0.0.1:\(port)\(path)"
        guard
            let output = ChildProcess.output(
                of: wrk,
                ["-t1", "-c\(connections)", "-d\(Int(seconds))s", "-s", script, target]
            )
        else { throw ValidationError("cannot start \(wrk)") }
        let line = output.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") } ?? ""
        return Double(line.split(separator: " ").last ?? "") ?? 0
    }

    /// Requests per second over `connections` keep-alive connections of this process.
    private func throughput(port: Int, request: String) -> Double {
        let total = Mutex(0)
        let deadline = Date().addingTimeInterval(seconds)
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: connections) { _ in
            var count = 0
            if let connection = try? LoopbackConnection(port: port) {
                while Date() < deadline, connection.exchange(request).status > 0 { count += 1 }
                connection.close()
            }
            total.withLock { $0 += count }
        }
        return Double(total.withLock { $0 }) / Date().timeIntervalSince(start)
    }

    /// Seconds from a force written to the state file (as the console writes
    /// it) to the last of `streams` open streams receiving its payload.
    private func forceToEvent(port: Int, state: String, streams count: Int) throws -> Double {
        var streams: [LoopbackConnection] = []
        for _ in 0..<count {
            let stream = try LoopbackConnection(port: port)
            stream.send("GET /sub/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(stream)
        }
        Self.drainOpeningEvents(streams)
        guard let demo = DemoCatalog.locate() else { throw ValidationError("the demo catalog was not found") }
        let catalog = try CatalogDecoder().decode(contentsOf: demo)
        let console = try LocalLaboratory(
            catalogs: [(path: demo, catalog: catalog)],
            statePath: state,
            debugSource: true,
            app: nil
        )
        guard let debug = console.debug else { throw ValidationError("the console's wiring has no debug source") }
        let current = try console.manager.refresh().assignment(for: "subscribeButtonColor")?.variant
        let variant = current == "ButtonColorBlue" ? "ButtonColorDarkGray" : "ButtonColorBlue"
        let weights = variant == "ButtonColorBlue" ? "[0,1,0]" : "[0,0,1]"
        let start = Date()
        try debug.force(variant: variant, of: "ButtonColor")
        let (last, _) = Self.lastArrival(on: streams, marker: "\"weights\":\(weights)")
        for stream in streams { stream.close() }
        return last.timeIntervalSince(start)
    }
}
