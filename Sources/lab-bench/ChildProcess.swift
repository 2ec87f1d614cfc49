import Foundation
import LabDrivers

/// Runs a program to its end and returns what it printed on standard output.
enum ChildProcess {
    /// Its standard output, or `nil` when it cannot be started.
    static func output(of program: String, _ arguments: [String]) -> String? {
        (try? Subprocess.run(program, arguments))?.stdout
    }
}

/// A program kept running, spoken to a line at a time: a line written to
/// its standard input, a line read back from its standard output.
final class LineChild {
    private let running: Subprocess.Running
    private let input: Int32
    private let output: Int32
    private var buffered: [UInt8] = []

    /// Starts `program`; `nil` when it cannot be started.
    init?(_ program: String, _ arguments: [String]) {
        // Close-on-exec: the child keeps only the ends it is given, so closing ours ends its input.
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard Self.pipe(&toChild) else { return nil }
        guard Self.pipe(&fromChild) else {
            close(toChild[0])
            close(toChild[1])
            return nil
        }
        let started = try? Subprocess.start(program, arguments, standardInput: toChild[0], standardOutput: fromChild[1])
        close(toChild[0])
        close(fromChild[1])
        guard let started else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        running = started
        input = toChild[1]
        output = fromChild[0]
    }

    /// A pipe whose both ends close on exec (Glibc's overlay has no `pipe2`).
    private static func pipe(_ ends: inout [Int32]) -> Bool {
        guard Glibc.pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Writes `line` and a newline; `false` when the program no longer reads.
    func send(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// The next line the program prints, without its newline; `nil` at its end.
    func readLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }

    /// Closes its input, so it ends, and waits for it.
    func finish() {
        close(input)
        close(output)
        _ = running.wait()
    }
}
