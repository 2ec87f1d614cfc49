import Foundation

/// Times of one kind of work, by the wall clock and in CPU time of the
/// thread that did it, one sample per run, summarized by their medians.
struct Samples {
    /// Seconds by the wall clock, one per run.
    private(set) var wall: [Double] = []
    /// Seconds of this thread's CPU time, one per run.
    private(set) var cpu: [Double] = []

    /// Runs `work` once and keeps its times.
    mutating func time(_ work: () -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = Self.threadCPUSeconds()
        work()
        cpu.append(Self.threadCPUSeconds() - cpuStart)
        wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Keeps samples measured elsewhere (another process's).
    mutating func append(_ other: Samples) {
        wall += other.wall
        cpu += other.cpu
    }

    /// Samples measured elsewhere, wall and CPU times in pairs.
    init(wall: [Double] = [], cpu: [Double] = []) {
        self.wall = wall
        self.cpu = cpu
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
