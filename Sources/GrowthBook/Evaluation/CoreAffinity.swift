#if canImport(Glibc)
import Glibc

/// Which core a thread runs on, and a way to move a thread off one: so a
/// decoding job woken onto the core of the thread that woke it does not
/// share that core while another sits idle.
///
/// Linux may place a woken thread on the waker's core even with the other
/// core idle (in a virtual machine, likely because the idle core's virtual
/// CPU was descheduled by the host and so did not count as idle). Queued
/// behind the parsing thread, the job then started 1.0–1.6 ms after it was
/// queued, when the parse was over and the parsing thread had decoded every
/// batch itself: a payload of 1,000 features took 1.3–1.8 ms, wall time
/// equal to CPU time, against 0.8–0.9 ms with the job beside it, in most
/// decodes of two processes out of six on the 2-core benchmark machine.
/// Once moved, a job's thread is woken on the other core the next time.
///
/// `sched_getcpu` and `sched_setaffinity` are GNU extensions Swift's Glibc
/// module does not declare; they are looked up by name, once, and where
/// they are missing nothing moves.
enum CoreAffinity {
    private typealias CurrentCore = @convention(c) () -> Int32
    private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32

    private static let currentCoreFunction: CurrentCore? = dlsym(nil, "sched_getcpu").map {
        unsafeBitCast($0, to: CurrentCore.self)
    }
    private static let getAffinity: Affinity? = dlsym(nil, "sched_getaffinity").map {
        unsafeBitCast($0, to: Affinity.self)
    }
    private static let setAffinity: Affinity? = dlsym(nil, "sched_setaffinity").map {
        unsafeBitCast($0, to: Affinity.self)
    }

    /// The core the calling thread runs on now, or -1 when unknown.
    static var currentCore: Int32 { currentCoreFunction?() ?? -1 }

    /// The cores the calling thread may run on before ``leave(_:)`` narrowed them.
    struct Allowed {
        fileprivate var set: cpu_set_t
    }

    /// Moves the calling thread off `core` when it runs there and may run
    /// elsewhere; returns what to give ``restore(_:)`` when it moved.
    static func leave(_ core: Int32) -> Allowed? {
        guard core >= 0, core < Int32(MemoryLayout<cpu_set_t>.size * 8), currentCore == core,
            let allowed = allowedCores, let setAffinity
        else { return nil }
        var narrowed = allowed
        let others = withUnsafeMutableBytes(of: &narrowed) { bytes -> Bool in
            let word = bytes.bindMemory(to: UInt.self)
            let bits = UInt.bitWidth
            word[Int(core) / bits] &= ~(1 << (UInt(core) % UInt(bits)))
            return word.contains { $0 != 0 }
        }
        guard others, setAffinity(0, MemoryLayout<cpu_set_t>.size, &narrowed) == 0 else { return nil }
        return Allowed(set: allowed)
    }

    /// How many cores the calling thread may run on, or `nil` when unknown.
    static var allowedCoreCount: Int? {
        guard var allowed = allowedCores else { return nil }
        return withUnsafeBytes(of: &allowed) { bytes in
            bytes.bindMemory(to: UInt.self).reduce(0) { $0 + $1.nonzeroBitCount }
        }
    }

    /// The cores the calling thread may run on now, or `nil` when unknown.
    private static var allowedCores: cpu_set_t? {
        var allowed = cpu_set_t()
        guard let getAffinity, getAffinity(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return nil }
        return allowed
    }

    /// Lets a thread just woken onto the calling thread's core run (and
    /// ``leave(_:)`` it): queued behind a busy thread, it may wait there a
    /// millisecond or more before the scheduler moves it.
    static func yieldCore() {
        sched_yield()
    }

    /// Lets the calling thread run where it could before ``leave(_:)``.
    static func restore(_ allowed: Allowed) {
        var set = allowed.set
        _ = setAffinity?(0, MemoryLayout<cpu_set_t>.size, &set)
    }
}
#else
/// Elsewhere threads are left where the system puts them.
enum CoreAffinity {
    static var currentCore: Int32 { -1 }
    static var allowedCoreCount: Int? { nil }
    struct Allowed {}
    static func leave(_ core: Int32) -> Allowed? { nil }
    static func yieldCore() {}
    static func restore(_ allowed: Allowed) {}
}
#endif
