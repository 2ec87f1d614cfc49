import CAllocationCounter
import Foundation
import GrowthBook

/// Decodes of one payload in one way, each timed by the wall clock and in
/// CPU time over every thread of the process (a decode may run on all
/// cores, and the wall clock shows its work only as far as they share it),
/// summarized by their medians; and the heap allocations of the last.
struct DecodeRuns {
    /// Milliseconds by the wall clock, one per decode.
    private(set) var wall: [Double] = []
    /// Milliseconds of CPU time over every thread, one per decode.
    private(set) var cpu: [Double] = []
    /// The heap allocations of the last decode.
    private(set) var allocations = 0

    /// Decodes once with `decode` and keeps its times. The payload is
    /// returned for the caller to keep, so the one it replaces is freed after
    /// the clock stops, as an app keeps its last good payload meanwhile.
    mutating func time(_ decode: () throws -> GrowthBookPayload) rethrows -> GrowthBookPayload {
        let before = allocation_count()
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = Samples.processCPUSeconds()
        let payload = try decode()
        cpu.append((Samples.processCPUSeconds() - cpuStart) * 1e3)
        wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        allocations = Int(allocation_count() - before)
        return payload
    }

    var medianWall: Double { Samples.median(wall) }
    var medianCPU: Double { Samples.median(cpu) }
}
