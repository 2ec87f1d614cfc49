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
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
