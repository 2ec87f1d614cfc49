// The fuzzing binary: one holds every target, and LAB_FUZZ_TARGET names the
// one to run. `Tests/Fuzz/run` builds it with SwiftPM, sanitized for
// libFuzzer and AddressSanitizer; this main hands the command line to
// libFuzzer's driver. A plain build has no libFuzzer, and says so.
import CFuzzerDriver
import Foundation
import LabFuzzTargets

/// The target LAB_FUZZ_TARGET names; the run ends at once without one.
private let target: @Sendable (Data) -> Void = {
    let name = ProcessInfo.processInfo.environment["LAB_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.all[name] else {
        let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("LAB_FUZZ_TARGET must be one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// One input, as libFuzzer hands it over.
private func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    target(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// libFuzzer's own name for the function it fuzzes. A debug build renames
/// this file's main (SwiftPM then defines `main` as it for the linker), so
/// libFuzzer's main, which calls this, is linked too; this file's main runs.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    fuzzOneInput(bytes, count)
}

_ = target  // names the target, or ends here, before libFuzzer starts
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = lab_fuzzer_run(&argc, &argv, fuzzOneInput)
if status == -1 {
    let message = "lab-fuzz: built without libFuzzer; build and run it with Tests/Fuzz/run\n"
    FileHandle.standardError.write(Data(message.utf8))
    exit(2)
}
exit(status)
