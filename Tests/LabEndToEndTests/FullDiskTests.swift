import Foundation
import LabDrivers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A state file on a disk that fills up: the server answers a failed write
/// with JSON that says "disk full" (not 500 with an empty body), and `lab`
/// says the same; nothing traps. The disk is a 512 KiB tmpfs in a mount
/// namespace of the test's own, which needs root (as CI has).
@Suite(.enabled(if: geteuid() == 0, "needs root for a tmpfs in a private mount namespace (unshare -m)"))
struct FullDiskTests {
    @Test func aFullDiskIsSaidToBeFull() throws {
        let lab = try LabHarness()
        let disk = lab.folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let script = LabHarness.packageRoot + "/Tests/LabEndToEndTests/Scripts/full-disk.sh"
        let result = try Subprocess.run(
            "/usr/bin/unshare",
            ["-m", "/bin/bash", script, LabHarness.binary, disk, lab.folder],
            environment: lab.environment
        )
        let post = result.stdout.split(separator: "\n").first { $0.hasPrefix("post ") }.map(String.init) ?? ""
        #expect(
            post.hasPrefix("post 500 {\"error\":\"the events were not stored: disk full"),
            "\(result.stdout) \(result.stderr)"
        )
        let report = result.stdout.split(separator: "\n").first { $0.hasPrefix("report ") }.map(String.init) ?? ""
        #expect(report.hasPrefix("report 74 "), "\(result.stdout)")
        #expect(report.contains("disk full"), "\(report)")
    }
}
