import Foundation

/// `lab assignments` on the demo catalog, end to end: spawn, start, read,
/// print, exit, as a script calling it in a loop sees it; and `lab --version`,
/// the cost of starting any `lab` process. Goal: under 25 ms.
enum CommandBench {
    static func run(folder: String) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let lab = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("lab").path
        guard FileManager.default.isExecutableFile(atPath: lab) else {
            print("lab assignments: no lab beside lab-bench (build it: swift build -c release --product lab)")
            return
        }
        let state = folder + "/assignments.sqlite"
        let runs: [(label: String, arguments: [String])] = [
            ("lab --version, end to end, median of 30:              ", ["--version"]),
            ("lab assignments, demo catalog, end to end, median of 30:", ["assignments", "--state", state]),
        ]
        _ = ChildProcess.output(of: lab, ["assignments", "--state", state])  // the state file exists from here on
        for run in runs {
            var samples: [Double] = []
            for _ in 0..<30 {
                let start = DispatchTime.now().uptimeNanoseconds
                guard ChildProcess.output(of: lab, run.arguments) != nil else { return }
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            samples.sort()
            print(String(format: "%@ %6.1f ms (min %.1f)", run.label, samples[15], samples[0]))
        }
    }
}
