import Foundation
import Testing

@testable import GrowthBook

/// A decoding job woken onto the parsing thread's core moves off it for the
/// job, and may run everywhere again after.
@Suite struct CoreAffinityTests {
    @Test func aThreadLeavesItsCoreAndMayRunEverywhereAgainAfter() throws {
        let cores = try #require(CoreAffinity.allowedCoreCount, "sched_getaffinity is missing")
        #expect(CoreAffinity.currentCore >= 0)
        guard cores >= 2 else {
            // One core allowed: there is nowhere to go, and nothing moves.
            #expect(CoreAffinity.leave(CoreAffinity.currentCore) == nil)
            return
        }
        // The thread may be moved between reading its core and leaving it; then leave again.
        var left: (core: Int32, allowed: CoreAffinity.Allowed)?
        for _ in 0..<100 where left == nil {
            let core = CoreAffinity.currentCore
            left = CoreAffinity.leave(core).map { (core, $0) }
        }
        let (core, allowed) = try #require(left, "the thread never left its core")
        #expect(CoreAffinity.currentCore != core)
        #expect(CoreAffinity.allowedCoreCount == cores - 1)
        // Now off that core, asking to leave it again changes nothing.
        #expect(CoreAffinity.leave(core) == nil)
        CoreAffinity.restore(allowed)
        #expect(CoreAffinity.allowedCoreCount == cores)
    }

    @Test func noCoreIsLeftWhenNoneIsNamed() {
        #expect(CoreAffinity.leave(-1) == nil)
        #expect(CoreAffinity.leave(Int32.max) == nil)
    }
}
