import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// The Attributes screen of the real `lab console` in tmux at 80×24: a value
/// typed in place reaches the other processes on the state file, `lab
/// serve` among them, without a restart.
@Suite(.requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console tests"))
struct ConsoleAttributesTests {
    static let payload = """
        {"features": {"checkout-cta": {"defaultValue": "Buy", "rules": [
          {"condition": {"country": "FR"}, "force": "Acheter"}
        ]}}}
        """

    @Test func anAttributeTypedInTheConsoleReachesOtherProcessesAndTheServer() throws {
        let lab = try LabHarness()
        let payload = try lab.write("payload.json", Self.payload)
        let serving = try LabServe(lab, ["--growthbook", payload])
        defer { serving.stop() }
        let tmux = try lab.console("--growthbook '\(payload)'", columns: 80, rows: 24)
        defer { tmux.kill() }
        #expect(tmux.waitFor("Attributes"), "\(tmux.capture())")
        try tmux.send("Down", "Down", "Down", "Enter")
        // GrowthBook's id (the device id) first, then what the rule reads and nobody set.
        #expect(tmux.waitFor { $0.contains("READ BY") && $0.contains(" country ") }, "\(tmux.capture())")
        try tmux.send("Down", "Enter")
        #expect(tmux.waitFor("editing country"), "\(tmux.capture())")
        try tmux.send("F", "R", "Enter")
        #expect(tmux.waitFor("country is FR now: 1 experiment changed."), "\(tmux.capture())")
        #expect(tmux.capture().contains("state file"))

        // Another process on the state file evaluates with it.
        let result = try lab.runRaw([
            "assignments", "--json", "--growthbook", payload, "--state", lab.state,
        ])
        let rows = try LabHarness.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
        #expect(rows.first { $0["key"] as? String == "checkout-cta" }?["value"] as? String == "Acheter", "\(rows)")

        // So does the server, which read it when the state file changed.
        let explain = ["explain", "checkout-cta: force", "--connect", serving.base]
        let explained = Poll.until(seconds: 10, every: 0.1) {
            (try? lab.runRaw(explain))?.stdout.contains("country FR") == true ? true : nil
        }
        #expect(explained == true, "\((try? lab.runRaw(explain))?.stdout ?? "")")

        // Removed in the console (d), it is gone everywhere.
        try tmux.send("d")
        #expect(tmux.waitFor("country is unset now"), "\(tmux.capture())")
        let after = try lab.runRaw(["assignments", "--json", "--growthbook", payload, "--state", lab.state])
        let keys = (try LabHarness.json(after.stdout)["assignments"] as? [[String: Any]] ?? []).map {
            $0["key"] as? String
        }
        #expect(!keys.contains("checkout-cta"), "\(after.stdout)")
    }
}
