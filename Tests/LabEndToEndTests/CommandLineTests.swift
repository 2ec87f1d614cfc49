import Foundation
import LabDrivers
import Testing

/// Drives the real `lab` binary on state files of the tests' own.
@Suite struct CommandLineTests {
    @Test func aFreshStateFileGivesTheSameAssignmentsOnASecondRun() throws {
        let lab = try LabHarness()
        let first = try lab.assignments()
        #expect(!first.isEmpty)
        #expect(first["subscribeButtonColor"] != nil)
        #expect(try lab.assignments() == first)
    }

    @Test func assignmentsJSONHasTheDocumentedShape() throws {
        let lab = try LabHarness()
        let result = try lab.run("assignments", "--json")
        let rows = try LabHarness.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["key"] as? String ?? "" } == rows.map { $0["key"] as? String ?? "" }.sorted())
        for row in rows {
            #expect(Set(row.keys) == ["key", "value", "experiment", "variant", "source"])
        }
        #expect((try LabHarness.json(result.stdout)["conflicts"] as? [Any])?.isEmpty == true)
    }

    @Test func aStabilizedDeviceShowsItAndUndoLetsDrawsFlowAgain() throws {
        let lab = try LabHarness()
        #expect(try lab.run("stabilize").status == 0)
        #expect(try lab.run("experiments").stdout.contains("Local (stabilized since "))
        let stabilized =
            try LabHarness.json(try lab.run("experiments", "--json").stdout)["stabilized"] as? [String: Any]
        #expect(stabilized?["Local"] != nil)
        let undo = try lab.run("stabilize", "--undo")
        #expect(undo.status == 0 && undo.stdout.hasPrefix("No longer stabilized (a debug action)"), "\(undo.stdout)")
        #expect(!(try lab.run("experiments").stdout.contains("stabilized since")))
        #expect(
            (try LabHarness.json(try lab.run("experiments", "--json").stdout)["stabilized"] as? [String: Any])?.isEmpty
                == true
        )
        // And stabilizing works again afterwards.
        #expect(try lab.run("stabilize").status == 0)
        #expect(try lab.run("experiments").stdout.contains("Local (stabilized since "))
    }

    @Test func typosGetADidYouMeanAndCaseIsForgiven() throws {
        let lab = try LabHarness()
        let command = try lab.runRaw(["frce", "ButtonColor", "ButtonColorBlue"])
        #expect(command.status == 64)
        #expect(command.stderr.contains(#"no command named "frce"; did you mean "force"?"#), "\(command.stderr)")
        let experiment = try lab.run("force", "ButonColor", "ButtonColorBlue")
        #expect(experiment.status == 1)
        #expect(experiment.stderr.contains(#"did you mean "ButtonColor"?"#), "\(experiment.stderr)")
        let variant = try lab.run("force", "ButtonColor", "Bleu")
        #expect(variant.stderr.contains(#"did you mean "Blue"?"#), "\(variant.stderr)")
        // The short name the console shows is taken as the variant it names.
        let short = try lab.run("force", "ButtonColor", "Blue")
        #expect(short.status == 0 && short.stdout.hasPrefix("Forced ButtonColor to ButtonColorBlue."), "\(short)")
        let forced = try lab.run("force", "buttoncolor", "buttoncolorblue")
        #expect(forced.status == 0 && forced.stdout.hasPrefix("Forced ButtonColor to ButtonColorBlue."))
        let reason = try lab.run("events", "--reason", "dispalyed")
        #expect(reason.status == 64 && reason.stderr.contains(#"did you mean "displayed"?"#), "\(reason.stderr)")
        // A mistyped reason is refused where it would be stored, too, not kept as an exposure nobody counts.
        let report = try lab.run("report", "subscribeButtonColor", "--reason", "displayd")
        #expect(report.status == 64 && report.stderr.contains(#"did you mean "displayed"?"#), "\(report.stderr)")
        #expect(try lab.run("events", "--reason", "displayd").status == 64)
        let version = try lab.runRaw(["--version"])
        #expect(version.status == 0 && version.stdout.contains("state file version 8"), "\(version.stdout)")
    }

    @Test func assignmentsJSONListsTheConflictsTheTablePrints() throws {
        let lab = try LabHarness()
        // Both forced, whatever this device's token: they share onboardingPageCount.
        #expect(try lab.run("force", "OnboardingLongFlow", "OnboardingLongFlowEightPages").status == 0)
        #expect(try lab.run("force", "OnboardingShortFlow", "OnboardingShortFlowFivePages").status == 0)
        let table = try lab.run("assignments").stdout
        let document = try LabHarness.json(try lab.run("assignments", "--json").stdout)
        let conflicts = document["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.count == table.split(separator: "\n").filter { $0.hasPrefix("conflict: ") }.count)
        let conflict = try #require(conflicts.first)
        #expect(conflict["keys"] as? [String] == ["onboardingPageCount"])
        #expect((conflict["winner"] as? [String: Any])?["experiment"] as? String == "OnboardingLongFlow")
        #expect((conflict["winner"] as? [String: Any])?["forced"] as? Bool == true)
        #expect((conflict["loser"] as? [String: Any])?["experiment"] as? String == "OnboardingShortFlow")
    }

    @Test func forceShowsTheForcedVariantAndResetBringsBackTheDraw() throws {
        let lab = try LabHarness()
        let drawn = try lab.assignments()["subscribeButtonColor"]
        let forced = drawn == "ButtonColorBlue" ? "ButtonColorDarkGray" : "ButtonColorBlue"
        let force = try lab.run("force", "ButtonColor", forced)
        #expect(force.status == 0, "\(force.stderr)")
        #expect(try lab.assignments()["subscribeButtonColor"] == forced)

        let experiments = try LabHarness.json(try lab.run("experiments", "--json").stdout)
        let rows = experiments["experiments"] as? [[String: Any]] ?? []
        let button = try #require(rows.first { $0["name"] as? String == "ButtonColor" })
        #expect(button["forced"] as? Bool == true)
        #expect(button["variant"] as? String == forced)
        #expect(button["variants"] as? [String] == ["ButtonColorRed", "ButtonColorBlue", "ButtonColorDarkGray"])

        #expect(try lab.run("reset").status == 0)
        #expect(try lab.assignments()["subscribeButtonColor"] == drawn)
    }

    @Test func changingCommandsPrintJSONWithTheNewAssignments() throws {
        let lab = try LabHarness()
        let force = try LabHarness.json(try lab.run("force", "ButtonColor", "ButtonColorDarkGray", "--json").stdout)
        #expect(force["message"] as? String == "Forced ButtonColor to ButtonColorDarkGray.")
        let rows = force["assignments"] as? [[String: Any]] ?? []
        #expect(
            rows.contains { $0["key"] as? String == "subscribeButtonColor" && $0["value"] as? String == "darkGray" }
        )
        let report = try LabHarness.json(try lab.run("report", "subscribeButtonColor", "--json").stdout)
        #expect(report["recorded"] as? Bool == true)
        #expect((report["assignment"] as? [String: Any])?["variant"] as? String == "ButtonColorDarkGray")
        let update = try LabHarness.json(try lab.run("update", "--json").stdout)
        #expect((update["sources"] as? [[String: Any]])?.first?["status"] as? String == "ok")
        for command in [["unforce", "ButtonColor"], ["reset"], ["stabilize"]] {
            let result = try lab.runRaw(command + ["--json", "--state", lab.state])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try LabHarness.json(result.stdout)["assignments"] != nil)
        }
    }

    @Test func forcingInactiveAndUnforcing() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "Inactive").status == 0)
        #expect(try lab.assignments()["subscribeButtonColor"] == nil)
        #expect(try lab.run("unforce", "ButtonColor").status == 0)
        #expect(try lab.assignments()["subscribeButtonColor"] != nil)
        let again = try lab.run("unforce", "ButtonColor")
        #expect(again.status == 1)
        #expect(again.stderr.contains("no forced variant for \"ButtonColor\""))
    }

    @Test func forcingAnUnknownVariantFailsWithTheChoices() throws {
        let lab = try LabHarness()
        let result = try lab.run("force", "ButtonColor", "Purple")
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no variant \"Purple\""))
        #expect(result.stderr.contains("ButtonColorDarkGray, Inactive"))
    }

    @Test func reportLoopsRunningAtOnceLoseNoRow() throws {
        let lab = try LabHarness()
        _ = try lab.assignments()
        let before = try eventReasons(lab)
        let loop = """
            i=0; while [ $i -lt 500 ]; do
              "$0" report subscribeButtonColor --reason initiated --state "$1" >/dev/null || exit 1
              i=$((i+1))
            done
            """
        let loops = try (0..<2).map { _ in
            try Subprocess.start("/bin/sh", ["-c", loop, LabHarness.binary, lab.state], environment: lab.environment)
        }
        for running in loops {
            let result = running.wait()
            #expect(result.status == 0, "\(result.stderr)")
        }
        let after = try eventReasons(lab)
        #expect(after.filter { $0 == "initiated" }.count == 1_000)
        #expect(after.count == before.count + 1_000)
    }

    private func eventReasons(_ lab: LabHarness) throws -> [String] {
        let result = try lab.runRaw(["events", "--json", "--limit", "100000", "--state", lab.state])
        let rows = try LabHarness.json(result.stdout)["events"] as? [[String: Any]] ?? []
        return rows.map { $0["reason"] as? String ?? "" }
    }

    @Test func displayedIsRecordedOnce() throws {
        let lab = try LabHarness()
        #expect(try lab.run("report", "subscribeButtonColor").stdout.hasPrefix("Recorded displayed"))
        #expect(try lab.run("report", "subscribeButtonColor").stdout.hasPrefix("Not recorded"))
        #expect(try eventReasons(lab).filter { $0 == "displayed" }.count == 1)
    }

    @Test func reportingAKeyNoExperimentAssignsFails() throws {
        let lab = try LabHarness()
        let result = try lab.run("report", "noSuchKey")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no active experiment assigns \"noSuchKey\""))
    }

    @Test func aMalformedCatalogExits65AndLeavesTheStateFileAlone() throws {
        let lab = try LabHarness()
        let demo = LabHarness.packageRoot + "/share/laboratory/demo.json"
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue", "--catalog", demo).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: lab.state))
        let bad = try lab.write(
            "bad.json",
            """
            {
              "source": "Local",
              "experiments": [
                {"name": "E", "keys": ["k"], "baseline": "A", "variants": [{"name": "A", "assignments": {}}]}
              ]
            }
            """
        )
        for command in [["assignments"], ["force", "E", "A"], ["reset"], ["stabilize"]] {
            let result = try lab.runRaw(command + ["--catalog", bad, "--state", lab.state])
            #expect(result.status == 65)
            #expect(
                result.stderr.contains(
                    "\(bad):4:64: error: variant \"A\" of experiment \"E\" does not assign key \"k\""
                )
            )
            #expect(try Data(contentsOf: URL(fileURLWithPath: lab.state)) == before)
        }
    }

    @Test func aStateFileThatIsNotOursIsRefusedByPath() throws {
        let lab = try LabHarness()
        let notes = try lab.write("notes.txt", "shopping list\n")
        let result = try lab.runRaw(["assignments", "--state", notes])
        #expect(result.status == 74)
        #expect(result.stderr.contains("\(notes): not a Laboratory state file"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "shopping list\n")
    }

    @Test func checkIsCleanOnTheDemoAndPointsAtMistakes() throws {
        let lab = try LabHarness()
        let clean = try lab.runRaw(["check", LabHarness.packageRoot + "/share/laboratory/demo.json"])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("no problems"))
        let bad = try lab.write(
            "range.json",
            """
            {"source": "S", "experiments": [{"name": "E", "keys": ["k"], "activeTokenRange": [0.9, 0.1],
              "baseline": "A", "variants": [{"name": "A", "weight": 0, "assignments": {"k": 1}}]}]}
            """
        )
        let result = try lab.runRaw(["check", bad])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(bad):1:82: error: \"activeTokenRange\" of experiment \"E\" is reversed"))
        #expect(result.stdout.contains("\(bad):2:57: error: weight of variant \"A\""))
        #expect(try lab.runRaw(["check", lab.folder + "/missing.json"]).status == 66)  // unreadable, as everywhere
    }

    @Test func checkCatchesAGrowthBookFeatureThatACatalogAlsoAssigns() throws {
        let lab = try LabHarness()
        let payload = try lab.write("gb.json", #"{"features": {"subscribeButtonColor": {"defaultValue": "red"}}}"#)
        let demo = LabHarness.packageRoot + "/share/laboratory/demo.json"
        let result = try lab.runRaw(["check", demo, "--growthbook", payload])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "\(payload):1:15: error: feature \"subscribeButtonColor\" is also assigned by experiment \"Local/ButtonColor\""
            )
        )
        #expect(try lab.runRaw(["check", "--growthbook", payload]).status == 0)
    }

    /// A GrowthBook feature whose value is an object stays an object in every JSON output.
    @Test func jsonValuedFeaturesStayJSON() throws {
        let lab = try LabHarness()
        let payload = try lab.write(
            "gb.json",
            #"{"features": {"layout": {"defaultValue": {}, "rules": [{"key": "layout-test", "variations": [{"columns": 2, "tags": ["a"]}, [1, 2]], "weights": [1, 0]}]}}}"#
        )
        let options = ["--growthbook", payload, "--state", lab.state]
        let assignments = try LabHarness.json(try lab.runRaw(["assignments", "--json"] + options).stdout)
        let row = (assignments["assignments"] as? [[String: Any]] ?? []).first { $0["key"] as? String == "layout" }
        let value = try #require(row?["value"] as? [String: Any], "\(assignments)")
        #expect(value["columns"] as? Int == 2 && value["tags"] as? [String] == ["a"])
        let events = try LabHarness.json(try lab.runRaw(["events", "--json", "--state", lab.state]).stdout)
        let activated = (events["events"] as? [[String: Any]] ?? []).first { $0["key"] as? String == "layout" }
        #expect((activated?["value"] as? [String: Any])?["columns"] as? Int == 2, "\(events)")
        // People read it as JSON text.
        let table = try lab.runRaw(["assignments"] + options).stdout
        #expect(table.contains(#"{"columns":2,"tags":["a"]}"#), "\(table)")
    }

    @Test func stabilizeKeepsAssignmentsThroughNewExperiments() throws {
        let lab = try LabHarness()
        let demo = LabHarness.packageRoot + "/share/laboratory/demo.json"
        let before = try lab.assignments()
        #expect(try lab.run("stabilize").status == 0)
        let extended = try String(contentsOfFile: demo, encoding: .utf8).replacingOccurrences(
            of: "\"experiments\": [",
            with: """
                "experiments": [
                    {"name": "Fresh", "keys": ["freshKey"], "baseline": "A",
                     "variants": [{"name": "A", "assignments": {"freshKey": 1}}]},
                """
        )
        let path = try lab.write("extended.json", extended)
        let result = try lab.runRaw(["assignments", "--json", "--catalog", path, "--state", lab.state])
        let rows = try LabHarness.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
        #expect(rows.count == before.count)
        #expect(!rows.contains { $0["key"] as? String == "freshKey" })
    }

    @Test func aUserLevelExperimentFollowsTheUserAcrossStateFiles() throws {
        let lab = try LabHarness()
        let catalog = try lab.write(
            "users.json",
            """
            {"source": "Accounts", "experiments": [{"name": "CheckoutFlow", "keys": ["checkoutSteps"],
              "subject": "user", "baseline": "Long", "whitelist": {"employee-1": "Short"},
              "variants": [{"name": "Long", "assignments": {"checkoutSteps": 5}},
                           {"name": "Medium", "assignments": {"checkoutSteps": 3}},
                           {"name": "Short", "assignments": {"checkoutSteps": 1}}]}]}
            """
        )
        func variant(state: String, user: String?) throws -> String? {
            let attributes = user.map { ["--attribute", "userId=\($0)"] } ?? []
            let result = try lab.runRaw(
                ["assignments", "--json", "--catalog", catalog, "--state", lab.folder + "/" + state] + attributes
            )
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try LabHarness.json(result.stdout)["assignments"] as? [[String: Any]] ?? []
            return rows.first { $0["key"] as? String == "checkoutSteps" }?["variant"] as? String
        }
        for user in ["alice", "bob", "carol", "dave"] {
            let phone = try variant(state: "phone.sqlite", user: user)
            #expect(phone != nil)
            #expect(try variant(state: "tablet.sqlite", user: user) == phone)
        }
        #expect(try variant(state: "phone.sqlite", user: nil) == nil)
        #expect(try variant(state: "tablet.sqlite", user: "employee-1") == "Short")

        let experiments = try lab.runRaw([
            "experiments", "--json", "--catalog", catalog, "--state", lab.folder + "/phone.sqlite", "--attribute",
            "userId=employee-1",
        ])
        let row = try #require((try LabHarness.json(experiments.stdout)["experiments"] as? [[String: Any]])?.first)
        #expect(row["subject"] as? String == "user")
        #expect(row["bucketing"] as? String == "hash")
        #expect(row["basis"] as? String == "whitelisted")
        #expect(row["status"] as? String == "running")
        let bad = try lab.runRaw(["assignments", "--attribute", "userId", "--state", lab.state])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--attribute takes key=value"))
    }
}
