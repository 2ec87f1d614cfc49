import Foundation
import LabTestSupport
import Testing

/// One `lab serve` shared by testers: a console connected to it with a
/// scope, a console on its state file and `lab force --connect` see each
/// other's changes as they happen, and every forced variant says who set it.
@Suite(
    .requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console end-to-end tests")
)
struct TeamSteeringTests {
    static let anaToken = "ana-token-0123456789abcdef"
    static let boToken = "bo-token-0123456789abcdef"

    @Test func aConnectedConsoleALocalOneAndTheCommandLineAgree() throws {
        let lab = try LabHarness()
        let tokens = try lab.write("tokens.json", #"{"ana": "\#(Self.anaToken)", "bo": "\#(Self.boToken)"}"#)
        let serving = try LabServe(lab, ["--tokens", tokens])
        defer { serving.stop() }
        let remote = try Tmux(
            command:
                "'\(LabHarness.binary)' console --connect \(serving.base) --token \(Self.anaToken) --as id=qa-phone-a",
            environment: lab.environment
        )
        defer { remote.kill() }
        let local = try Tmux(
            command: "'\(LabHarness.binary)' console --state '\(lab.state)'",
            environment: lab.environment
        )
        defer { local.kill() }
        #expect(remote.waitFor("as id=qa-phone-a", timeout: 20), "\(remote.capture())")
        #expect(local.waitFor("Experiments", timeout: 20))

        // Ana, connected and scoped to her phone, forces ButtonColor Blue.
        try remote.send("Enter")  // Experiments
        #expect(remote.waitFor("ButtonColor"))
        try remote.send("Enter", "Down", "Enter")  // ButtonColor's variants: the one after the current
        let anas = try #require(Self.forcedVariant(on: remote, suffix: " for id=qa-phone-a."), "\(remote.capture())")
        // The console on the state file lists it in Settings, with who set it.
        try local.send("End", "Up", "Enter")  // Settings
        #expect(
            local.waitFor { $0.contains("ButtonColor → \(anas) for id=qa-phone-a · by ana") },
            "\(local.capture())"
        )

        // Bo forces from the command line, for the same phone: Ana's console shows it.
        let forced = try lab.run(
            "force",
            "ProfileRedesign",
            "Inactive",
            "--for",
            "id=qa-phone-a",
            "--connect",
            serving.base,
            "--token",
            Self.boToken
        )
        #expect(forced.status == 0 && forced.stdout.contains("Forced ProfileRedesign inactive for id=qa-phone-a."))
        #expect(
            remote.waitFor { screen in
                screen.split(separator: "\n").contains { $0.contains("ProfileRedesign") && $0.contains("Inactive") }
            },
            "\(remote.capture())"
        )
        #expect(local.waitFor("ProfileRedesign → Inactive for id=qa-phone-a · by bo"), "\(local.capture())")

        // The console on the state file forces for everyone: Ana's Settings list shows it.
        try local.send("Left", "Home", "Enter")  // main screen, Experiments
        #expect(local.waitFor("ButtonColor"))
        try local.send("Enter", "Down", "Enter")  // ButtonColor: the one after the current, for everyone
        let everyones = try #require(Self.forcedVariant(on: local, suffix: "."), "\(local.capture())")
        try remote.send("Left", "End", "Up", "Enter")  // Ana: main screen, Settings
        #expect(remote.waitFor("ButtonColor → \(everyones) for everyone"), "\(remote.capture())")
        // Hers still wins on her phone: scoped beats unscoped.
        let explained = try lab.run(
            "explain",
            "ButtonColor",
            "--for",
            "id=qa-phone-a",
            "--connect",
            serving.base,
            "--token",
            Self.anaToken
        )
        #expect(explained.stdout.contains("a scoped forced variant beats an unscoped one"), "\(explained.stdout)")
    }

    /// The variant a console's status line says ButtonColor was forced to,
    /// as lists show it (no prefix; `Inactive` when forced inactive).
    static func forcedVariant(on tmux: Tmux, suffix: String) -> String? {
        var found: String?
        tmux.waitFor { screen in
            if screen.contains("Forced ButtonColor inactive" + suffix) {
                found = "Inactive"
                return true
            }
            guard let start = screen.range(of: "Forced ButtonColor to ButtonColor") else { return false }
            let rest = screen[start.upperBound...]
            guard let end = rest.range(of: suffix) else { return false }
            found = String(rest[..<end.lowerBound])
            return !(found?.contains(" ") ?? true)
        }
        return found
    }

    @Test func aLostServerShowsAndTheConsoleComesBackByItself() throws {
        let lab = try LabHarness()
        var serving = try LabServe(lab)
        defer { serving.stop() }
        let port = try #require(serving.base.split(separator: ":").last.map(String.init))
        let remote = try Tmux(
            command: "'\(LabHarness.binary)' console --connect \(serving.base)",
            environment: lab.environment
        )
        defer { remote.kill() }
        #expect(remote.waitFor("Experiments", timeout: 20))
        serving.stop()
        #expect(remote.waitFor("connection lost", timeout: 20), "\(remote.capture())")
        #expect(remote.capture().contains("offline"))
        serving = try LabServe(lab, ["--port", port])
        #expect(remote.waitFor(timeout: 30) { !$0.contains("connection lost") && !$0.contains("offline") })
    }
}
