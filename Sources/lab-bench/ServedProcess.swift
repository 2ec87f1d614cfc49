import Foundation
import LabDrivers

/// `lab serve --port 0` on a state file, in a child process, with what the
/// benchmarks read of it: its memory.
struct ServedProcess {
    let served: ServedLab

    /// - Parameter arguments: more of `lab serve`'s options.
    init(state: String, arguments more: [String] = []) throws {
        let lab = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lab").path
        served = try ServedLab(binary: lab, arguments: ["--state", state] + more, seconds: 30)
    }

    var pid: pid_t { served.pid }
    var port: Int { served.port }

    func residentKilobytes() -> Int { status("VmRSS") }

    /// The most it has been resident since it started.
    func peakResidentKilobytes() -> Int { status("VmHWM") }

    private func status(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() { served.stop() }
}
