import Foundation
import LabDrivers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a child started by `Subprocess` is given of the test process.
@Suite struct SubprocessTests {
    /// A socket a child inherited stayed open as long as the child ran (a
    /// tmux server, a `lab serve`): a test server's close then ended nothing,
    /// and its client waited out a 10 s idle timeout instead of reading the
    /// end of the stream.
    @Test func aChildHoldsNoDescriptorOfTheTestsButItsOwnThree() throws {
        // A pipe opened without close-on-exec, as sockets of the test servers were.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        var status = stat()
        try #require(fstat(ends[0], &status) == 0)

        let listed = try Subprocess.run("/bin/ls", ["-l", "/proc/self/fd"])
        #expect(listed.status == 0, "\(listed.stderr)")
        // Standard input, output and error are there: the listing sees what the child holds.
        let numbers = Set(
            listed.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ").dropLast(2).last.flatMap { Int($0) }
            }
        )
        #expect(numbers.isSuperset(of: [0, 1, 2]), "\(listed.stdout)")
        #expect(!listed.stdout.contains("pipe:[\(status.st_ino)]"), "\(listed.stdout)")
    }
}
