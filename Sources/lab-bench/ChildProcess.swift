import Foundation

/// Runs a program to its end and returns what it printed on standard output.
enum ChildProcess {
    static func output(of program: String, _ arguments: [String]) -> String? {
        let output = NSTemporaryDirectory() + "lab-bench-\(UUID().uuidString).out"
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard let pid = spawn(program, arguments, &actions) else { return nil }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Starts `program` with `arguments` and this process's environment; its pid, or `nil`.
    static func spawn(
        _ program: String,
        _ arguments: [String],
        _ actions: inout posix_spawn_file_actions_t
    ) -> pid_t? {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 ? pid : nil
    }
}

/// A program kept running, spoken to a line at a time: a line written to
/// its standard input, a line read back from its standard output.
final class LineChild {
    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffered: [UInt8] = []

    /// Starts `program`; `nil` when it cannot be started.
    init?(_ program: String, _ arguments: [String]) {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let spawned = ChildProcess.spawn(program, arguments, &actions)
        close(toChild[0])
        close(fromChild[1])
        guard let pid = spawned else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        self.pid = pid
        input = toChild[1]
        output = fromChild[0]
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
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
