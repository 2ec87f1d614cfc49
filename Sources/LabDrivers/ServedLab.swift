import Foundation

/// `lab serve --port 0` in a child process, until ``stop()``: the server
/// the end-to-end tests and the benchmarks talk to, found by the
/// `Serving http://127.0.0.1:PORT` line it prints once it listens.
package struct ServedLab {
    package let running: Subprocess.Running
    /// Where it listens: `http://127.0.0.1:PORT`.
    package let base: String

    /// Starts `binary serve --port 0` with `arguments` after those, and waits
    /// up to `seconds` for it to listen.
    package init(
        binary: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        seconds: Double = 20
    ) throws {
        running = try Subprocess.start(binary, ["serve", "--port", "0"] + arguments, environment: environment)
        let output = running.stdoutPath
        let found = Poll.until(seconds: seconds, every: 0.05) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
                .first { $0.hasPrefix("Serving ") }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        guard let found else {
            kill(running.pid, SIGTERM)
            _ = running.wait()
            throw NotListening()
        }
        base = found
    }

    /// `lab serve` printed no `Serving …` line in time.
    package struct NotListening: Error, CustomStringConvertible {
        package var description: String { "lab serve did not start" }
    }

    /// Its process id.
    package var pid: pid_t { running.pid }

    /// The port it listens on.
    package var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }

    /// What it printed so far.
    package var log: String { (try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? "" }

    /// Ends it (SIGTERM) and waits for it.
    package func stop() {
        kill(running.pid, SIGTERM)
        _ = running.wait()
    }
}
