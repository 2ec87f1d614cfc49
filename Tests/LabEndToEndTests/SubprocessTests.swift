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

    /// Descriptors passed are the child's 3, 4, … (Chromium's DevTools pipes),
    /// and a child of its own process group leads it.
    @Test func passedDescriptorsComeThirdAndFourthAndAGroupIsTheChildsOwn() throws {
        var three: [Int32] = [-1, -1]
        var four: [Int32] = [-1, -1]
        try #require(pipe(&three) == 0 && pipe(&four) == 0)
        defer { for end in three + four { close(end) } }
        let running = try Subprocess.start(
            "/bin/sh",
            ["-c", "echo third >&3; echo fourth >&4; cat /proc/$$/stat"],
            passing: [three[1], four[1]],
            ownProcessGroup: true
        )
        let result = running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        for (end, expected) in [(three[0], "third\n"), (four[0], "fourth\n")] {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(end, &buffer, buffer.count)
            #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == expected)
        }
        // `pid (comm) state ppid pgrp …`: the shell's group is its own id.
        let fields = result.stdout.split(separator: ")").last?.split(separator: " ") ?? []
        #expect(fields.count > 2 && fields[2] == "\(running.pid)", "\(result.stdout)")
    }
}
