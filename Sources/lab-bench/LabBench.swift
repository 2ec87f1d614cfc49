import ArgumentParser
import ConsoleCurses
import Foundation
import GrowthBook
import Laboratory
import LaboratoryConsole
import LaboratoryRuntime

/// `lab-bench`: measures the console on a generated catalog.
///
/// Reports the time from start to the first full frame, the reducer + render
/// time per key press (moving, and each filter keystroke), and peak memory.
/// Goals: first frame under 100 ms, under 5 ms per key, under 50 MB.
/// Run it in release: `swift run -c release lab-bench`.
@main
struct LabBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab-bench",
        abstract: "Benchmark the console on a generated catalog.",
        subcommands: [ServerBench.self, ServerLoadBench.self, GrowthBookBench.self]
    )

    @Option(help: "Experiments in all, spread over the sources.") var experiments = 10_000
    @Option(help: "Sources (one catalog file each).") var sources = 3
    @Option(help: "Key presses to time for moving.") var moves = 2_000
    @Option(help: .hidden) var memoryProbe: String?
    @Flag(help: "Measure only lab serve's rebuild after a force (for profiling it).") var serveRebuildOnly = false
    @Option(
        help: "Write the catalogs and the state file here and keep them (for profiling one start with --memory-probe)."
    )
    var keep: String?

    func run() throws {
        if let memoryProbe { return try probeStart(memoryProbe) }
        let folder = keep ?? NSTemporaryDirectory() + "lab-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let paths = try CatalogGenerator.write(experiments: experiments, sources: sources, into: folder)
        let state = folder + "/state.sqlite"
        if serveRebuildOnly { return try ServeRebuildBench.run(paths: paths, folder: folder) }

        print("catalog: \(experiments) experiments in \(sources) sources; each start in a fresh process")
        // Each fresh start gets a state file of its own; the last one's stays for the warm starts.
        var fresh: [ProbedStart] = []
        for index in 0..<5 {
            let path = index == 4 ? state : folder + "/fresh\(index).sqlite"
            fresh.append(try probedStart(paths: paths, state: path))
            if index < 4 { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        }
        var warm: [ProbedStart] = []
        for _ in 0..<7 { warm.append(try probedStart(paths: paths, state: state)) }
        let freshMedian = ProbedStart.median(fresh)
        let warmMedian = ProbedStart.median(warm)
        print(
            String(
                format:
                    "first frame, fresh state file (draws every experiment), median of 5: %6.1f ms in process, %6.1f ms from exec",
                freshMedian.inProcess,
                freshMedian.fromExec
            )
        )
        print(
            String(
                format:
                    "first frame, existing state file, median of 7:                        %6.1f ms in process, %6.1f ms from exec",
                warmMedian.inProcess,
                warmMedian.fromExec
            )
        )
        print(
            String(
                format:
                    "  catalogs %.1f; state: open and wire %.1f, settle and read %.1f, build rows %.1f; draw %.1f",
                warmMedian.decode,
                warmMedian.open,
                warmMedian.read,
                warmMedian.rows,
                warmMedian.draw
            )
        )
        print(
            String(
                format:
                    "peak memory of a console start (max RSS), median of 7:                %6.1f MB (%.1f before it, %.1f after the catalogs, %.1f after the state)",
                warmMedian.peakMegabytes,
                warmMedian.peakAtStart,
                warmMedian.peakAfterCatalogs,
                warmMedian.peakAfterState
            )
        )

        var world = try firstFrame(paths: paths, state: state).state
        world.size = TerminalSize(columns: 100, rows: 30)
        _ = ConsoleReducer.reduce(&world, .input(.key(.enter)))  // into Experiments
        let moving = time(count: moves) { index in
            _ = ConsoleReducer.reduce(&world, .input(.key(index % 500 < 250 ? .down : .up)))
            _ = ConsoleRenderer.render(world)
        }
        report("move (j/k), reducer + render", moving)

        _ = ConsoleReducer.reduce(&world, .input(.key(.character("/"))))
        let text = Array("experiment07")
        var filtering: [Double] = []
        for _ in 0..<20 {
            filtering += time(count: text.count * 2) { index in
                let key: Key = index < text.count ? .character(text[index]) : .backspace
                _ = ConsoleReducer.reduce(&world, .input(.key(key)))
                _ = ConsoleRenderer.render(world)
            }
        }
        report("filter keystroke, reducer + render", filtering)

        let checkStart = DispatchTime.now().uptimeNanoseconds
        let report = CatalogLinter().check(paths: paths)
        let checkTime = Double(DispatchTime.now().uptimeNanoseconds - checkStart) / 1e6
        print(
            String(
                format: "lab check of every catalog (%d diagnostics):                %8.1f ms",
                report.diagnostics.count,
                checkTime
            )
        )
        try ServeRebuildBench.run(paths: paths, folder: folder)
        try CommandBench.run(folder: folder)
    }

    /// In the child: one console start, timed from its first line to the
    /// first frame drawn, then a few keys, then the peak RSS.
    private func probeStart(_ spec: String) throws {
        let parts = spec.split(separator: "\n").map(String.init)
        let start = try firstFrame(paths: Array(parts.dropFirst()), state: parts[0])
        var world = start.state
        for key in [Key.enter, .end, .character("/"), .character("e"), .escape] {
            _ = ConsoleReducer.reduce(&world, .input(.key(key)))
            _ = ConsoleRenderer.render(world)
        }
        print(
            ProbedStart.line(
                start,
                drawnAt: start.drawnAt,
                peakMegabytes: peakMegabytes()
            )
        )
    }

    /// One console start in a fresh process (``probeStart(_:)``).
    private func probedStart(paths: [String], state: String) throws -> ProbedStart {
        // The last start's files reach the disk first, as they would
        // between two starts by hand: the kernel's flushing of them would
        // otherwise fall on this start, whichever moment its program chose to write.
        sync()
        let spawnedAt = DispatchTime.now().uptimeNanoseconds
        let output = try spawnSelf(["--memory-probe", ([state] + paths).joined(separator: "\n")])
        guard let probed = ProbedStart(output, spawnedAt: spawnedAt) else {
            throw ValidationError("the start probe printed \"\(output)\"")
        }
        return probed
    }

    /// VmHWM, the peak resident set of this process image. (getrusage's
    /// ru_maxrss would also count the parent's peak, which Linux keeps across exec.)
    private func peakMegabytes() -> Double { Double(peakResidentKilobytes()) / 1024 }

    private func peakResidentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Runs this benchmark again with `arguments`; returns its standard output.
    private func spawnSelf(_ arguments: [String]) throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard let output = ChildProcess.output(of: executable, arguments) else { return "(could not start)" }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Start {
        var milliseconds: Double
        var state: ConsoleState
        /// Milliseconds spent reading catalogs, reading the state, and drawing.
        var stages: (decode: Double, load: Double, draw: Double)
        /// The state's part: opening the file and wiring, settling and reading what the console shows, building rows.
        var stateParts: (open: Double, read: Double, rows: Double)
        /// The peak resident memory in MB before the start, after reading the catalogs, after reading the state.
        var peaks: (start: Double, catalogs: Double, state: Double)
        /// The monotonic time of the frame, in nanoseconds: taken as it is
        /// drawn, before the wiring is torn down (closing the state file
        /// may copy its write-ahead log into it, which the console does when it quits).
        var drawnAt: UInt64
    }

    /// What `lab console` does before its first frame: read the catalogs, open
    /// the state, read everything the console shows, render, draw.
    func firstFrame(paths: [String], state path: String) throws -> Start {
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }
        let start = now()
        let peakAtStart = peakMegabytes()
        let catalogs = try zip(paths, CatalogDecoder().decode(contentsOf: paths)).map {
            (path: $0, catalog: try $1.get())
        }
        let decoded = now()
        let peakAfterCatalogs = peakMegabytes()
        // The console's wiring, as `lab console` builds it.
        let laboratory = try LocalLaboratory(
            catalogs: catalogs,
            statePath: path,
            debugSource: true,
            app: nil,
            random: BenchRandomSource()
        )
        guard let debug = laboratory.debug else { throw ValidationError("the console's wiring has no debug source") }
        let environment = LiveConsoleEnvironment(
            manager: laboratory.manager,
            debug: debug,
            store: laboratory.store,
            log: laboratory.store,
            files: .disk
        )
        let opened = now()
        let data = try environment.load()
        let read = now()
        let peakAfterRead = peakMegabytes()
        let state = ConsoleState(size: TerminalSize(columns: 100, rows: 30), data: data)
        let loaded = now()
        let terminal = try CursesTerminal.headless(size: state.size)
        terminal.draw(ConsoleRenderer.render(state))
        let drawnAt = DispatchTime.now().uptimeNanoseconds
        let drawn = Double(drawnAt) / 1e6
        terminal.close()
        return Start(
            milliseconds: drawn - start,
            state: state,
            stages: (decoded - start, loaded - decoded, drawn - loaded),
            stateParts: (opened - decoded, read - opened, loaded - read),
            peaks: (peakAtStart, peakAfterCatalogs, peakAfterRead),
            drawnAt: drawnAt
        )
    }

    private func time(count: Int, _ body: (Int) -> Void) -> [Double] {
        (0..<count).map { index in
            let start = DispatchTime.now().uptimeNanoseconds
            body(index)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
    }

    private func report(_ name: String, _ samples: [Double]) {
        let sorted = samples.sorted()
        let mean = samples.reduce(0, +) / Double(max(1, samples.count))
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
            String(
                format: "%@: mean %.2f ms, p99 %.2f ms, max %.2f ms (%d presses)",
                name.padding(toLength: 38, withPad: " ", startingAt: 0),
                mean,
                p99,
                sorted.last ?? 0,
                samples.count
            )
        )
    }
}
