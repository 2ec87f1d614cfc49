import Foundation
import LabDrivers
import LabTestSupport
import Laboratory
import LaboratorySQLite
import Testing

/// `lab events`: formats, filters, following, and the exposure summary.
@Suite struct EventsCommandTests {
    @Test func followShowsARowWrittenByAnotherProcessWithinASecond() throws {
        let lab = try LabHarness()
        _ = try lab.assignments()
        // A first row the follower prints at start: seeing it says the follower is running.
        #expect(try lab.run("report", "subscribeButtonColor", "--reason", "initiated").status == 0)
        let follower = try Subprocess.start(
            LabHarness.binary,
            ["events", "--follow", "--format", "jsonl", "--reason", "initiated", "--state", lab.state],
            environment: lab.environment
        )
        defer {
            kill(follower.pid, SIGTERM)
            _ = follower.wait()  // reaps it and removes its output files
        }
        func rows() -> Int {
            let output = (try? String(contentsOfFile: follower.stdoutPath, encoding: .utf8)) ?? ""
            return output.components(separatedBy: "\"reason\":\"initiated\"").count - 1
        }
        _ = Poll.until(seconds: 10) { rows() >= 1 ? true : nil }
        #expect(rows() == 1, "the follower never printed the first row")
        #expect(try lab.run("report", "onboardingPageCount", "--reason", "initiated").status == 0)
        let written = Date()  // the row is committed once the report process has returned
        let seenAfter = Poll.until(seconds: 5) { rows() == 2 ? Date().timeIntervalSince(written) : nil }
        #expect(seenAfter != nil)
        // The follower polls every 0.2 s; the bound leaves room for a machine
        // busy with the other suites, not for a slower design.
        #expect((seenAfter ?? 99) < 2, "seen after \(seenAfter ?? -1) s")
    }

    @Test func booleansStayBooleansInNewAndOldStateFiles() throws {
        let lab = try LabHarness()
        _ = try lab.assignments()
        #expect(try lab.run("report", "profileShowsBadges", "--reason", "displayed").status == 0)
        // A state file from the first release, whose rows hold 0 for false.
        let old = lab.folder + "/old.sqlite"
        try FileManager.default.copyItem(
            atPath: LabHarness.packageRoot + "/Tests/LaboratorySQLiteTests/Fixtures/state-v1.sqlite",
            toPath: old
        )
        for state in [lab.state, old] {
            let result = try lab.runRaw(["events", "--json", "--state", state])
            let rows = try LabHarness.json(result.stdout)["events"] as? [[String: Any]] ?? []
            let badges = rows.filter { $0["key"] as? String == "profileShowsBadges" }
            #expect(!badges.isEmpty, "\(state): \(result.stdout)")
            for row in badges {
                // JSONSerialization reads a JSON boolean as a CFBoolean, a number as an NSNumber.
                #expect(String(describing: type(of: row["value"]!)).contains("Bool"), "\(state): \(row)")
            }
            let table = try lab.runRaw(["events", "--state", state]).stdout
            #expect(!table.split(separator: "\n").contains { $0.contains("profileShowsBadges") && $0.contains(" 0 ") })
        }
    }

    @Test func csvHasAHeaderAndQuotesWhatNeedsIt() throws {
        let lab = try LabHarness()
        _ = try lab.assignments()
        let result = try lab.run("events", "--format", "csv")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "id,time,device,source,experiment,variant,key,value,reason,forced")
        #expect(lines.count > 1)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 10 })
    }

    @Test func filtersNarrowTheRows() throws {
        let lab = try LabHarness()
        _ = try lab.assignments()
        _ = try lab.run("report", "subscribeButtonColor")
        let displayed = try LabHarness.json(try lab.run("events", "--json", "--reason", "displayed").stdout)
        #expect((displayed["events"] as? [[String: Any]])?.count == 1)
        let other = try LabHarness.json(try lab.run("events", "--json", "--experiment", "NoSuchExperiment").stdout)
        #expect((other["events"] as? [[String: Any]])?.isEmpty == true)
        let future = try LabHarness.json(try lab.run("events", "--json", "--since", "2999-01-01").stdout)
        #expect((future["events"] as? [[String: Any]])?.isEmpty == true)
        let recent = try LabHarness.json(try lab.run("events", "--json", "--since", "1h").stdout)
        #expect((recent["events"] as? [[String: Any]])?.isEmpty == false)
        #expect(try lab.run("events", "--since", "yesterday-ish").status == 64)
    }

    /// Writes `counts` displayed events of ButtonColor, one device each.
    private func exposures(_ lab: LabHarness, _ counts: [String: Int], forced: Bool = false) throws {
        let store = try SQLiteStateStore(path: lab.state)
        var events: [Event] = []
        for (variant, count) in counts {
            for index in 0..<count {
                let assignment = Assignment(
                    key: "subscribeButtonColor",
                    value: "x",
                    experiment: "ButtonColor",
                    variant: variant,
                    source: "Local"
                )
                events.append(
                    Event(assignment, reason: .displayed, device: "\(variant)-\(index)", time: Date(), forced: forced)
                )
            }
        }
        try store.record(events)
    }

    @Test func theSummaryFlagsASkewedSplitAndNotAFairOne() throws {
        let skewed = try LabHarness()
        try exposures(skewed, ["ButtonColorRed": 500, "ButtonColorBlue": 300, "ButtonColorDarkGray": 300])
        let flagged = try skewed.run("events", "--summary")
        #expect(flagged.stdout.contains("SAMPLE RATIO MISMATCH"), "\(flagged.stdout)")
        let document = try LabHarness.json(try skewed.run("events", "--summary", "--json").stdout)
        let row = (document["experiments"] as? [[String: Any]])?.first
        #expect(row?["sampleRatioMismatch"] as? Bool == true)
        #expect(row?["total"] as? Int == 1100)

        let fair = try LabHarness()
        try exposures(fair, ["ButtonColorRed": 340, "ButtonColorBlue": 330, "ButtonColorDarkGray": 335])
        let clean = try fair.run("events", "--summary")
        #expect(clean.stdout.contains("split matches the weights"), "\(clean.stdout)")
        #expect(!clean.stdout.contains("MISMATCH"))
    }

    @Test func forcedExposuresAreLeftOutAndFewExposuresAreNotJudged() throws {
        let lab = try LabHarness()
        // QA forced Red on 500 devices: not experiment data, so no mismatch.
        try exposures(lab, ["ButtonColorRed": 340, "ButtonColorBlue": 330, "ButtonColorDarkGray": 335])
        try exposures(lab, ["ButtonColorRed": 500], forced: true)
        let summary = try lab.run("events", "--summary")
        #expect(summary.stdout.contains("1005 exposures (and 500 of forced variants, left out"), "\(summary.stdout)")
        #expect(summary.stdout.contains("split matches the weights"), "\(summary.stdout)")
        let rows =
            try LabHarness.json(try lab.run("events", "--json", "--limit", "1").stdout)["events"] as? [[String: Any]]
        #expect(rows?.first?["forced"] as? Bool == true)
        // A handful of exposures says nothing either way.
        let few = try LabHarness()
        try exposures(few, ["ButtonColorRed": 4, "ButtonColorBlue": 0, "ButtonColorDarkGray": 1])
        let verdict = try few.run("events", "--summary").stdout
        #expect(verdict.contains("too few exposures to judge"), "\(verdict)")
        #expect(!verdict.contains("split matches"))
        let document = try LabHarness.json(try few.run("events", "--summary", "--json").stdout)
        #expect((document["experiments"] as? [[String: Any]])?.first?["judged"] as? Bool == false)
    }

    @Test func aForcedVariantsEventsSaySo() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        #expect(try lab.run("report", "subscribeButtonColor", "--reason", "displayed").status == 0)
        let rows = try LabHarness.json(try lab.run("events", "--json").stdout)["events"] as? [[String: Any]] ?? []
        let button = rows.filter { $0["experiment"] as? String == "ButtonColor" }
        #expect(button.contains { $0["reason"] as? String == "displayed" && $0["forced"] as? Bool == true })
        #expect(button.contains { $0["reason"] as? String == "activated" && $0["forced"] as? Bool == true })
        let others = rows.filter { $0["experiment"] as? String != "ButtonColor" }
        #expect(!others.isEmpty && others.allSatisfy { $0["forced"] as? Bool == false })
    }
}
