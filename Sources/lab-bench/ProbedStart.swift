import Foundation

/// One console start measured in a fresh process: what the child printed,
/// and the time from the parent's spawn to the frame the child drew.
struct ProbedStart {
    /// Milliseconds from the first line of the start to the first frame drawn.
    var inProcess: Double
    /// Milliseconds from the spawn (dynamic loading included) to the first frame drawn.
    var fromExec: Double
    var decode: Double
    var open: Double
    var read: Double
    var rows: Double
    var draw: Double
    var peakMegabytes: Double
    var peakAtStart: Double
    var peakAfterCatalogs: Double
    var peakAfterState: Double

    /// The child's line: the start's parts, the monotonic time of its frame, its peak memory.
    static func line(_ start: LabBench.Start, drawnAt: UInt64, peakMegabytes: Double) -> String {
        let parts = [
            start.milliseconds, start.stages.decode, start.stateParts.open, start.stateParts.read,
            start.stateParts.rows, start.stages.draw, peakMegabytes, start.peaks.start, start.peaks.catalogs,
            start.peaks.state,
        ]
        return "start " + parts.map { String(format: "%.3f", $0) }.joined(separator: " ") + " \(drawnAt)"
    }

    /// Reads the child's line; `nil` when it printed something else (an error).
    init?(_ output: String, spawnedAt: UInt64) {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("start ") }) else { return nil }
        let fields = line.split(separator: " ").dropFirst()
        let numbers = fields.dropLast().compactMap { Double($0) }
        guard numbers.count == 10, let drawnAt = fields.last.flatMap({ UInt64($0) }), drawnAt > spawnedAt else {
            return nil
        }
        inProcess = numbers[0]
        decode = numbers[1]
        open = numbers[2]
        read = numbers[3]
        rows = numbers[4]
        draw = numbers[5]
        peakMegabytes = numbers[6]
        peakAtStart = numbers[7]
        peakAfterCatalogs = numbers[8]
        peakAfterState = numbers[9]
        fromExec = Double(drawnAt - spawnedAt) / 1e6
    }

    /// The median of each measure on its own.
    static func median(_ starts: [ProbedStart]) -> ProbedStart {
        func middle(_ measure: KeyPath<ProbedStart, Double>) -> Double {
            let sorted = starts.map { $0[keyPath: measure] }.sorted()
            return sorted[sorted.count / 2]
        }
        var result = starts[0]
        result.inProcess = middle(\.inProcess)
        result.fromExec = middle(\.fromExec)
        result.decode = middle(\.decode)
        result.open = middle(\.open)
        result.read = middle(\.read)
        result.rows = middle(\.rows)
        result.draw = middle(\.draw)
        result.peakMegabytes = middle(\.peakMegabytes)
        result.peakAtStart = middle(\.peakAtStart)
        result.peakAfterCatalogs = middle(\.peakAfterCatalogs)
        result.peakAfterState = middle(\.peakAfterState)
        return result
    }
}
