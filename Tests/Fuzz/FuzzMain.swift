// The libFuzzer entry point, built only by `Tests/Fuzz/run`, never by
// SwiftPM. One binary holds every target; LAB_FUZZ_TARGET names the one to run.
import Foundation

private let target: @Sendable (Data) -> Void = {
    let name = ProcessInfo.processInfo.environment["LAB_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.all[name] else {
        let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("LAB_FUZZ_TARGET must be one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    target(Data(bytes: bytes, count: count))
    return 0
}
