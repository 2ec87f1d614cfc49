// The libFuzzer entry point of one target, chosen at build time with
// `-D FUZZ_<NAME>`; built only by `Tests/Fuzz/run`, never by SwiftPM.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    #if FUZZ_CATALOG
    FuzzTargets.catalog(data)
    #elseif FUZZ_GROWTHBOOK
    FuzzTargets.growthBook(data)
    #elseif FUZZ_SSE
    FuzzTargets.serverSentEvents(data)
    #elseif FUZZ_OVERRIDES
    FuzzTargets.overrides(data)
    #endif
    return 0
}
