import Foundation

/// Times of one kind of work, by the wall clock and in CPU time of the
/// thread that did it (or of every thread, for work that runs on several),
/// one sample per run, summarized by their medians.
struct Samples {
    /// Seconds by the wall clock, one per run.
    private(set) var wall: [Double] = []
    /// Seconds of CPU time, one per run.
    private(set) var cpu: [Double] = []
    /// Whether ``cpu`` counts every thread of the process, not only the one
    /// that times the work: work that runs on all cores shows on the wall
    /// clock only as far as they share it.
    private let countsEveryThread: Bool

    /// Runs `work` once, keeps its times, and returns what it made (freed,
    /// if the caller does not keep it, after the clock stops).
    @discardableResult
    mutating func time<Result>(_ work: () throws -> Result) rethrows -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = cpuSeconds()
        let result = try work()
        cpu.append(cpuSeconds() - cpuStart)
        wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        return result
    }

    /// Keeps samples measured elsewhere (another process's).
    mutating func append(_ other: Samples) {
        wall += other.wall
        cpu += other.cpu
    }

    /// Samples measured elsewhere, wall and CPU times in pairs; or, with
    /// none, samples to take, in CPU time of every thread if `countsEveryThread`.
    init(wall: [Double] = [], cpu: [Double] = [], countsEveryThread: Bool = false) {
        self.wall = wall
        self.cpu = cpu
        self.countsEveryThread = countsEveryThread
    }

    var medianWall: Double { Self.median(wall) }
    var medianCPU: Double { Self.median(cpu) }

    /// The middle value (the mean of the middle two for an even count); NaN for none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The CPU time these samples count, in seconds.
    private func cpuSeconds() -> Double {
        countsEveryThread ? Self.processCPUSeconds() : Self.threadCPUSeconds()
    }

    /// CPU time every thread of this process has used, in seconds.
    static func processCPUSeconds() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    /// CPU time this thread has used, in seconds.
    static func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

    /// What the CPU-time clock `clock` reads, in seconds.
    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
