import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// Drives the real `lab console` in tmux at 100×30, as a person would.
@Suite(
    .requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console end-to-end tests")
)
struct ConsoleTmuxTests {
    private func console(_ lab: LabHarness) throws -> Tmux {
        let tmux = try lab.console()
        guard tmux.waitFor("Experiments") else {
            tmux.kill()
            throw HarnessError("the console did not start: \(tmux.capture())")
        }
        return tmux
    }

    @Test func forcingAVariantInTheConsoleIsSeenByTheCommandLine() throws {
        let lab = try LabHarness()
        let tmux = try console(lab)
        defer { tmux.kill() }
        try tmux.send("Enter")
        #expect(tmux.waitFor("ButtonColor"))
        try tmux.send("Enter")
        #expect(tmux.waitFor("Inactive"))
        try tmux.send("/", "DarkGray", "Enter", "Enter")
        #expect(tmux.waitFor("Forced ButtonColor to ButtonColorDarkGray."), "\(tmux.capture())")
        #expect(try lab.assignments()["subscribeButtonColor"] == "ButtonColorDarkGray")
        let row = tmux.capture().split(separator: "\n").first { $0.hasPrefix(" ButtonColor ") }
        #expect(row?.contains("F") == true)
    }

    @Test func aReportFromAnotherProcessAppearsOnTheEventsScreen() throws {
        let lab = try LabHarness()
        let tmux = try console(lab)
        defer { tmux.kill() }
        try tmux.send("j", "j", "Enter")
        #expect(tmux.waitFor("REASON"))
        #expect(!tmux.capture().contains("initiated"))
        let report = try lab.run("report", "subscribeButtonColor", "--reason", "initiated")
        #expect(report.status == 0, "\(report.stderr)")
        // No key is pressed: the console's watch of the state brings it.
        #expect(tmux.waitFor("initiated"), "\(tmux.capture())")
    }

    @Test func graphemeClustersAreDrawnWhole() throws {
        let lab = try LabHarness()
        // tmux 3.3 keeps at most 21 bytes per cell, so the family is one of three.
        let value = "👨‍👩‍👧 👍🏽 🇳🇿 e\u{301} ❤️ family"
        let path = try lab.write(
            "c.json",
            #"{"source": "Local", "experiments": [{"name": "Icons", "keys": ["icon"], "baseline": "A", "variants": ["#
                + #"{"name": "A", "assignments": {"icon": "\#(value)"}}, {"name": "B", "assignments": {"icon": "\#(value)"}}]}]}"#
        )
        let tmux = try Tmux(
            command: "'\(LabHarness.binary)' console --catalog '\(path)' --state '\(lab.state)'",
            environment: lab.environment
        )
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"), "\(tmux.capture())")
        try tmux.send("j", "Enter")
        #expect(tmux.waitFor("family"), "\(tmux.capture())")
        let row = tmux.capture().split(separator: "\n").first { $0.contains("family") }.map(String.init) ?? ""
        #expect(row.contains(value), "\(Array(row.unicodeScalars))")
        // Nothing after the clusters was drawn over: the layout used the widths tmux draws them in.
        #expect(row.hasSuffix("Local") && row.contains(" Icons "), "\(row)")
    }

    @Test func resizingBelowTheMinimumSaysSoAndResizingBackRestores() throws {
        let lab = try LabHarness()
        let tmux = try console(lab)
        defer { tmux.kill() }
        try tmux.send("Enter")
        #expect(tmux.waitFor("EXPERIMENT"))
        try tmux.resize(columns: 60, rows: 20)
        #expect(tmux.waitFor("terminal too small (needs 80×24)"), "\(tmux.capture())")
        try tmux.resize(columns: 100, rows: 30)
        #expect(tmux.waitFor { $0.contains("EXPERIMENT") && !$0.contains("too small") }, "\(tmux.capture())")
        #expect(tmux.capture().contains("Laboratory › Experiments"))
    }

    /// The console in tmux between two `stty -a` snapshots, its exit status echoed after it.
    private struct ConsoleWithModes {
        /// Held so the folder with the `stty` captures stays until the test ends.
        let lab: LabHarness
        let tmux: Tmux
        let before: String
        let after: String

        init(_ lab: LabHarness, environmentPrefix: String = "") throws {
            self.lab = lab
            before = lab.folder + "/stty-before"
            after = lab.folder + "/stty-after"
            tmux = try Tmux(
                command:
                    "stty -a > '\(before)'; \(environmentPrefix)'\(LabHarness.binary)' console --state '\(lab.state)'; "
                    + "echo \"exit $?\"; stty -a > '\(after)'; sleep 30",
                environment: lab.environment
            )
        }

        /// `stty -a` after the console exited matches what it printed before it started.
        func expectSameModes() throws {
            let beforeText = try String(contentsOfFile: before, encoding: .utf8)
            #expect(!beforeText.isEmpty)
            // Until the shell has written all of it (no fixed sleep: a busy machine writes late).
            let afterText = Poll.until(seconds: 5) {
                (try? String(contentsOfFile: after, encoding: .utf8)).flatMap { $0 == beforeText ? $0 : nil }
            }
            #expect(afterText == beforeText, "\((try? String(contentsOfFile: after, encoding: .utf8)) ?? "nothing")")
        }
    }

    @Test func ctrlCGivesTheTerminalBackAsItWas() throws {
        let console = try ConsoleWithModes(try LabHarness())
        let tmux = console.tmux
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        try tmux.send("Enter")
        #expect(tmux.waitFor("EXPERIMENT"))
        try tmux.send("C-c")
        #expect(tmux.waitFor("exit 0"), "\(tmux.capture())")
        try console.expectSameModes()
    }

    @Test(arguments: [("TERM", 143), ("HUP", 129), ("INT", 130)])
    func aSignalFromOutsideGivesTheTerminalBackAndExitsAsShellsExpect(_ signal: String, _ status: Int) throws {
        let lab = try LabHarness()
        let console = try ConsoleWithModes(lab)
        let tmux = console.tmux
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        // "[c]onsole" matches lab's command line but not the shell's own.
        _ = try Subprocess.run("/usr/bin/pkill", ["-\(signal)", "-f", "[c]onsole --state \(lab.state)"])
        #expect(tmux.waitFor("exit \(status)"), "\(tmux.capture())")
        try console.expectSameModes()
    }

    /// The console started from an interactive shell (job control: Ctrl-Z,
    /// `fg`, `kill %1`), its first screen drawn.
    private static func consoleInAShell(_ lab: LabHarness) throws -> Tmux {
        let tmux = try Tmux(command: "PS1='ready> ' exec bash --norc --noprofile -i", environment: lab.environment)
        do {
            #expect(tmux.waitFor("ready>"))
            try tmux.send("'\(LabHarness.binary)' console --state '\(lab.state)'", "Enter")
        } catch {
            tmux.kill()
            throw error
        }
        #expect(tmux.waitFor("Experiments"))
        return tmux
    }

    @Test func ctrlZSuspendsAndFgRedraws() throws {
        let lab = try LabHarness()
        let tmux = try Self.consoleInAShell(lab)
        defer { tmux.kill() }
        try tmux.send("C-z")
        #expect(tmux.waitFor { $0.contains("Stopped") && !$0.contains("CATEGORY") }, "\(tmux.capture())")
        try tmux.send("fg", "Enter")
        #expect(tmux.waitFor { $0.contains("CATEGORY") && $0.contains("Experiments") }, "\(tmux.capture())")
        try tmux.send("Enter")  // keys work again: into Experiments
        #expect(tmux.waitFor("EXPERIMENT"), "\(tmux.capture())")
        try tmux.send("q")
        try tmux.send("echo quit-$?", "Enter")  // typed ahead: runs once the console is gone
        #expect(tmux.waitFor("quit-0", timeout: 20), "\(tmux.capture())")
        // The shell's own screen is back, not a blank alternate one.
        #expect(!tmux.isOnAlternateScreen, "\(tmux.capture())")
    }

    @Test func aSignalWhileSuspendedStillGivesTheShellsScreenBack() throws {
        let lab = try LabHarness()
        let tmux = try Self.consoleInAShell(lab)
        defer { tmux.kill() }
        #expect(tmux.isOnAlternateScreen)
        try tmux.send("C-z")
        #expect(tmux.waitFor { $0.contains("Stopped") && !$0.contains("CATEGORY") }, "\(tmux.capture())")
        // Bash's kill continues a stopped job it signals, so the console may
        // end before fg runs (fg then finds no job and returns 1) or under it
        // (fg returns the console's 143): either way it ends by SIGTERM.
        // One line, so the shell (not the console in the foreground) runs the echo.
        try tmux.send("kill -TERM %1; fg; echo after-$?", "Enter")
        #expect(
            tmux.waitFor(timeout: 20) { $0.contains("after-143") || $0.contains("Exit 143") && $0.contains("after-1") },
            "\(tmux.capture())"
        )
        #expect(!tmux.isOnAlternateScreen, "\(tmux.capture())")
    }

    @Test func aCutDetailPaneScrollsAt80By24() throws {
        let lab = try LabHarness()
        // Thirty keys: the pane is longer than 24 rows on any device, drawn or not.
        let keys = (1...30).map { "key\($0)" }
        let assignments = keys.map { "\"\($0)\": 1" }.joined(separator: ", ")
        let catalog = try lab.write(
            "long.json",
            """
            {"source": "Local", "experiments": [{"name": "Wide", "keys": [\(keys.map { "\"\($0)\"" }.joined(separator: ", "))],
              "baseline": "A", "variants": [{"name": "A", "assignments": {\(assignments)}}]}]}
            """
        )
        let tmux = try lab.console("--catalog '\(catalog)'", columns: 80, rows: 24)
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        try tmux.send("Enter")
        #expect(tmux.waitFor("EXPERIMENT"))
        try tmux.send("Enter", "Home")  // the variant A: every key in the pane
        #expect(tmux.waitFor("▼ more"), "\(tmux.capture())")
        try tmux.send("S-Down")
        #expect(tmux.waitFor("▲ more"), "\(tmux.capture())")
        try tmux.send("Tab", "PPage", "PPage")
        #expect(tmux.waitFor { !$0.contains("▲ more") && $0.contains("▼ more") }, "\(tmux.capture())")
        try tmux.send("NPage", "NPage", "NPage")
        #expect(tmux.waitFor { $0.contains("▲ more") && !$0.contains("▼ more") }, "\(tmux.capture())")
    }

    /// tmux's terminal description announces X10 mouse reports, whose
    /// columns stop at 223: the console asks for SGR ones (1006), so a click
    /// at column 240 of a 250-column window lands where it was made.
    @Test func aClickPastColumn223SelectsAndOpensTheRow() throws {
        let lab = try LabHarness()
        let tmux = try lab.console(columns: 250)
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        try tmux.send("Enter", "p", "p")  // Experiments, the pane hidden: the list is 250 columns wide
        #expect(tmux.waitFor("Detail pane hidden"), "\(tmux.capture())")
        // What a terminal sends for a left press at column 240 of the fifth row (OnboardingLongFlow).
        let press = "\u{1B}[<0;240;5M\u{1B}[<0;240;5m"
        try tmux.send("-l", press)
        try tmux.send("-l", press)
        #expect(tmux.waitFor("Experiments › OnboardingLongFlow"), "\(tmux.capture())")
    }

    @Test func aTerminalThatCannotMoveItsCursorIsRefused() throws {
        let lab = try LabHarness()
        let tmux = try Tmux(
            command: "TERM=dumb '\(LabHarness.binary)' console --state '\(lab.state)'; echo \"exit $?\"; sleep 30",
            environment: lab.environment
        )
        defer { tmux.kill() }
        #expect(tmux.waitFor("exit 1"), "\(tmux.capture())")
        #expect(tmux.capture().contains("cannot move the cursor"))
    }

    @Test func aCrashGivesTheTerminalBackBeforeTheProcessDies() throws {
        let lab = try LabHarness()
        // Swift's crash reporter would otherwise wait 30 s for a key on a terminal.
        let console = try ConsoleWithModes(lab, environmentPrefix: "SWIFT_BACKTRACE=interactive=no ")
        let tmux = console.tmux
        defer { tmux.kill() }
        #expect(tmux.waitFor("Experiments"))
        // What a stack overflow or a trap delivers; "[c]onsole" matches lab but not the shell.
        _ = try Subprocess.run("/usr/bin/pkill", ["-SEGV", "-f", "[c]onsole --state \(lab.state)"])
        #expect(tmux.waitFor("exit 139", timeout: 30), "\(tmux.capture())")
        try console.expectSameModes()
    }

    @Test func anUnknownOrMissingTermIsAClearError() throws {
        let lab = try LabHarness()
        let tmux = try Tmux(
            command: "TERM=vt9000 '\(LabHarness.binary)' console --state '\(lab.state)'; echo \"exit $?\"; "
                + "env -u TERM '\(LabHarness.binary)' console --state '\(lab.state)'; echo \"exit $?\"; sleep 30",
            environment: lab.environment
        )
        defer { tmux.kill() }
        #expect(tmux.waitFor { $0.components(separatedBy: "exit 1").count == 3 }, "\(tmux.capture())")
        let screen = tmux.capture()
        #expect(screen.contains("unknown terminal type \"vt9000\""))
        #expect(screen.contains("TERM is not set"))
    }
}
