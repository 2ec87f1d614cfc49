#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors, which bounds its connections.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one (servers commonly start with a
    /// soft limit of 1,024 and a hard one far above) and returns it.
    static func raised() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? 65_536 : Int(clamping: limit.rlim_cur)
    }
}
