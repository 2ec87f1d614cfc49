import CSpawnActions
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs programs with `posix_spawn`, not `Foundation.Process` (which has
/// hung on this platform waiting for children such as tmux).
package enum Subprocess {
    package struct Result {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// A started child whose output goes to files until it is waited for.
    package struct Running {
        package let pid: pid_t
        package let stdoutPath: String
        package let stderrPath: String

        /// Waits for the child to end and collects its output.
        package func wait() -> Result {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let exited = (status & 0x7F) == 0
            let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            defer {
                unlink(stdoutPath)
                unlink(stderrPath)
            }
            return Result(
                status: code,
                stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            )
        }
    }

    package struct SpawnError: Error, CustomStringConvertible {
        package var executable: String
        package var code: Int32
        package var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` with standard input from `standardInput` (such as
    /// a pipe), else /dev/null; standard output goes to `standardOutput`
    /// when given, else to a file. `passing` are duplicated into the child
    /// as descriptors 3, 4, …: the child gets those and its three standard
    /// ones, and no other of this process's. With `ownProcessGroup` it leads
    /// a process group of its own, which `kill(-pid, …)` reaches whole.
    package static func start(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        standardInput: Int32? = nil,
        standardOutput: Int32? = nil,
        passing: [Int32] = [],
        ownProcessGroup: Bool = false
    ) throws -> Running {
        let base = NSTemporaryDirectory() + "lab-child-\(UUID().uuidString)"
        let running = Running(pid: 0, stdoutPath: base + ".out", stderrPath: base + ".err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, running.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, running.stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Copies numbered above the places they go to, so that putting one
        // in its place never overwrites another still to be put in its own.
        let lowestFree = Int32(3 + passing.count)
        var copies: [Int32] = []
        defer { for copy in copies { close(copy) } }
        for descriptor in passing {
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, lowestFree)
            guard copy >= 0 else { throw SpawnError(executable: executable, code: errno) }
            posix_spawn_file_actions_adddup2(&actions, copy, Int32(3 + copies.count))
            copies.append(copy)
        }
        // Nothing else of this process goes with the child. A socket it inherited
        // stayed open as long as it ran (a tmux server, a `lab serve`): a test
        // server's close then sent no end of stream, and its client waited out
        // its idle timeout.
        let closing = spawn_actions_close_from(&actions, lowestFree)
        guard closing == 0 else { throw SpawnError(executable: executable, code: closing) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environmentBlock(environment)
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The test runner's threads block signals; a child must not inherit
        // that mask (a tmux server that cannot see signals never exits).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(executable: executable, code: code) }
        return Running(pid: pid, stdoutPath: running.stdoutPath, stderrPath: running.stderrPath)
    }

    /// This process's environment with `overrides` applied, as `posix_spawn`
    /// takes it: `NAME=value` strings ending in `nil`, each to be `free`d.
    package static func environmentBlock(_ overrides: [String: String]) -> [UnsafeMutablePointer<CChar>?] {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(overrides) { _, new in new }
        return merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }

    /// Runs `executable` to the end.
    package static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:]
    ) throws -> Result {
        try start(executable, arguments, environment: environment).wait()
    }
}
