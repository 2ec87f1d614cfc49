import ArgumentParser
import Foundation

/// `lab serve --port 0` on a state file, in a child process.
struct ServedProcess {
    let pid: pid_t
    let port: Int

    /// - Parameter arguments: more of `lab serve`'s options.
    init(state: String, arguments more: [String] = []) throws {
        let lab = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lab").path
        let output = state + ".out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let arguments = [lab, "serve", "--port", "0", "--state", state] + more
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, lab, &actions, nil, argv, environ) == 0 else {
            throw ValidationError("cannot start \(lab)")
        }
        self.pid = pid
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil && Date() < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            port = text.split(separator: "\n").first { $0.hasPrefix("Serving ") }
                .flatMap { $0.split(separator: ":").last.flatMap { Int($0) } }
            if port == nil { usleep(50_000) }
        }
        guard let port else { throw ValidationError("lab serve did not start") }
        self.port = port
    }

    func residentKilobytes() -> Int { status("VmRSS") }

    /// The most it has been resident since it started.
    func peakResidentKilobytes() -> Int { status("VmHWM") }

    private func status(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
