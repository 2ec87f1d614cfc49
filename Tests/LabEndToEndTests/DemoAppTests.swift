import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// The demo app, used as an app would use the framework.
@Suite struct DemoAppTests {
    static let binary = URL(fileURLWithPath: LabHarness.binary).deletingLastPathComponent()
        .appendingPathComponent("lab-demo").path

    @Test func drawsTheForcedVariantAndReportsDisplayedOnce() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "SubscriptionScreenTheme", "SubscriptionScreenThemeLargeYellow").status == 0)
        for _ in 0..<2 {
            let result = try Subprocess.run(
                Self.binary,
                ["--once", "--state", lab.state],
                environment: lab.environment
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("G O   P R E M I U M"))
            // Not a terminal: no colour codes, no key hints.
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("Ctrl-C"), "\(result.stdout)")
            // Wrapped at 80 columns between words, and said to be QA's.
            #expect(result.stdout.contains("subscribeScreenFontColor = yellow   (SubscriptionScreenTheme /\n"))
            #expect(result.stdout.contains("      SubscriptionScreenThemeLargeYellow, forced by QA)"))
        }
        let events = try LabHarness.json(try lab.runRaw(["events", "--json", "--state", lab.state]).stdout)
        let displayed = (events["events"] as? [[String: Any]] ?? []).filter {
            $0["reason"] as? String == "displayed" && $0["experiment"] as? String == "SubscriptionScreenTheme"
        }
        #expect(displayed.count == 1)
    }

    /// At 80 columns (not a terminal) the long lines wrap between words,
    /// where a terminal would have cut `SubscriptionPromptImageBeach` in
    /// two, and a forced variant says it is QA's.
    @Test func linesWrapBetweenWordsAndAForcedVariantSaysSo() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "SubscriptionPromptImage", "SubscriptionPromptImageBeach").status == 0)
        let result = try Subprocess.run(Self.binary, ["--once", "--state", lab.state], environment: lab.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(result.stdout)")
        #expect(lines.contains("forced by QA: SubscriptionPromptImage → SubscriptionPromptImageBeach"))
        #expect(lines.contains { $0.hasPrefix("  subscribePromptImage = beach.png") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasSuffix("SubscriptionPromptImageBeach, forced by QA)") }, "\(result.stdout)")
        // Every name whole on one line.
        let words = Set(lines.flatMap { $0.split(separator: " ").map(String.init) })
        for word in ["(SubscriptionPromptImage", "SubscriptionPromptImageBeach,"] {
            #expect(words.contains(word), "\(word) is cut:\n\(result.stdout)")
        }
    }

    /// A release build's wiring: `lab force` changes nothing in it, and says so.
    @Test func anAppWithoutADebugSourceIgnoresForcingAndLabForceWarns() throws {
        let lab = try LabHarness()
        let arguments = ["--once", "--no-debug-source", "--state", lab.state]
        let before = try Subprocess.run(Self.binary, arguments, environment: lab.environment)
        #expect(before.status == 0, "\(before.stderr)")
        // A variant the app did not draw for itself, so forcing it would show.
        let variant = ["SubscriptionScreenThemeLargeYellow", "SubscriptionScreenThemeSmallBlue"].first {
            !before.stdout.contains(" \($0))")
        }!
        // While the release build runs, forcing warns that it changes nothing there.
        let running = try Subprocess.start(
            Self.binary,
            ["--no-debug-source", "--state", lab.state],
            environment: lab.environment
        )
        _ = Poll.until(seconds: 20) {
            ((try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? "").contains("Subscribe")
                ? true : nil
        }
        let force = try lab.run("force", "SubscriptionScreenTheme", variant)
        #expect(force.status == 0)
        #expect(
            force.stderr.contains(
                "warning: lab-demo has no debug source and ignores forced variants; forcing changes nothing there"
            ),
            "\(force.stderr)"
        )
        kill(running.pid, SIGTERM)
        _ = running.wait()
        // Once it quit, it is not named: it changes nothing either way (the warning named apps long gone).
        let quit = try lab.run("force", "SubscriptionScreenTheme", variant)
        #expect(quit.status == 0 && !quit.stderr.contains("warning"), "\(quit.stderr)")
        let after = try Subprocess.run(Self.binary, arguments, environment: lab.environment)
        // What the app drew for itself, as before the force.
        #expect(after.stdout == before.stdout, "\(after.stdout)")
        // The debug build of the same app applies it, and forcing stops warning.
        let debug = try Subprocess.run(Self.binary, ["--once", "--state", lab.state], environment: lab.environment)
        #expect(debug.stdout.contains(" \(variant), forced by QA)"), "\(debug.stdout)")
        let again = try lab.run("force", "SubscriptionScreenTheme", variant)
        #expect(again.status == 0 && !again.stderr.contains("warning"), "\(again.stderr)")
    }

    @Test(.requires(Tmux.isAvailable, "tmux is not installed"))
    func redrawsWhenAnotherProcessForcesAVariant() throws {
        let lab = try LabHarness()
        _ = try lab.run("force", "ButtonColor", "ButtonColorRed")
        let tmux = try Tmux(command: "'\(Self.binary)' --state '\(lab.state)'", environment: lab.environment)
        defer { tmux.kill() }
        #expect(tmux.waitFor("subscribeButtonColor = red"))
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        // Nothing but the demo's watch of the state redraws it (it has no
        // GrowthBook payload to refresh); 10 s is for a loaded machine.
        #expect(tmux.waitFor("subscribeButtonColor = blue", timeout: 10), "\(tmux.capture())")
    }
}
