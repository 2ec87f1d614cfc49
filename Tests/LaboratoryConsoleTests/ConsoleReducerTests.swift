import Foundation
import GrowthBook
import LabTestSupport
import Laboratory
import Testing

@testable import LaboratoryConsole

@Suite struct ConsoleReducerTests {
    @Test func mainScreenListsTheCategoriesWithLiveSummaries() throws {
        let world = try ConsoleWorld.demo()
        let lines = world.lines
        #expect(lines[0].hasPrefix(" Laboratory"))
        #expect(lines[0].hasSuffix("token 0.3000"))
        #expect(lines[2] == " Experiments 6 experiments · 5 active · 0 forced · 0 conflicts")
        #expect(lines[3].hasPrefix(" Assignments 7 active keys from 5 experiments"))
        #expect(lines[4].hasPrefix(" Events      7 events · newest activated at 08:00:00"))
        #expect(lines[5] == " Attributes  none set")
        #expect(lines[6] == " Settings    1 source · Local idle")
        #expect(lines[8] == " Reset       no forced variants")
        #expect(lines[29].contains("q quit"))
    }

    @Test func arrowsAndVimKeysMoveAndSkipSectionHeaders() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter)
        #expect(world.state.route == .experiments)
        #expect(world.highlighted == "ButtonColor")
        world.press(.down, .character("j"))
        #expect(world.highlighted == "OnboardingShortFlow")
        world.press(.up)
        #expect(world.highlighted == "OnboardingLongFlow")
        world.press(.up, .up)
        #expect(world.highlighted == "ButtonColor")
        world.press(.end)
        #expect(world.highlighted == "SubscriptionScreenTheme")
        world.press(.home)
        #expect(world.highlighted == "ButtonColor")
        world.press(.pageDown)
        #expect(world.highlighted == "SubscriptionScreenTheme")
    }

    @Test func experimentsAreSortedByNameUnderTheirSource() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter)
        let lines = world.lines
        #expect(lines[2].hasPrefix(" LOCAL"))
        let names = lines[3...8].map { String($0.dropFirst().prefix(while: { $0 != " " })) }
        #expect(names == names.sorted())
        // Variants are shown without their experiment's name in front.
        #expect(lines[3].hasPrefix(" ButtonColor             Red "))
        #expect(lines[7].contains("SubscriptionPromptImage Mountains"))
    }

    @Test func backKeysReturnAndEscFirstClearsTheFilter() throws {
        let world = try ConsoleWorld.demo()
        for back in [Key.escape, .left, .character("h"), .backspace] {
            world.press(.enter)
            #expect(world.state.route == .experiments)
            world.press(back)
            #expect(world.state.route == .main)
        }
        world.press(.enter, .character("/"))
        world.type("prof")
        world.press(.enter, .escape)
        #expect(world.state.route == .experiments)
        #expect(world.state.frame.filter.isEmpty)
    }

    @Test func openingAnExperimentListsItsVariantsPlusInactiveWithTheCurrentMarked() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .enter)
        #expect(world.state.route == .variants(source: "Local", experiment: "ButtonColor"))
        let lines = world.lines
        #expect(lines[0].hasPrefix(" Laboratory › Experiments › ButtonColor"))
        #expect(lines[2].hasPrefix(" ● Red "))
        #expect(lines[3].hasPrefix("   Blue "))
        #expect(lines[4].hasPrefix("   DarkGray "))
        #expect(lines[5].hasPrefix("   Inactive ") && lines[5].contains(" baseline │"))
        // The full name is in the pane.
        #expect(world.pane.contains("Variant ButtonColorRed"))
        #expect(world.highlighted == "ButtonColorRed")
    }

    @Test func aJSONValueIsShownPrettyPrintedAndEscapedInThePane() throws {
        let layout = JSONValue.object([
            .init("columns", .number(2)), .init("title", .string("\u{1B}[2J")), .init("tags", .array([.string("a")])),
        ])
        let catalog = Catalog(
            source: "Local",
            experiments: [
                Experiment(
                    name: "Layout",
                    keys: ["layout"],
                    variants: [Variant(name: "Grid", assignments: ["layout": .json(layout)])],
                    baseline: "Grid"
                )
            ]
        )
        let world = try ConsoleWorld([catalog])
        world.press(.enter, .enter)
        let pane = world.lines.compactMap { line -> String? in
            line.firstIndex(of: "│").map { String(line[line.index(after: $0)...]) }
        }
        // Under the variant: the key, then its value's lines.
        let start = try #require(pane.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "layout =" })
        #expect(pane[start + 1].trimmingCharacters(in: .whitespaces) == "{")
        #expect(pane[start + 2].contains(#"  "columns": 2,"#))
        // A control character arrives escaped, as JSON writes it: nothing reaches the terminal raw.
        #expect(pane[start + 3].contains(#""title": "\u001b[2J","#))
        #expect(!world.text.contains("\u{1B}"))
    }

    @Test func choosingAVariantForcesItThroughTheDebugSource() async throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .enter, .down, .enter)
        #expect(world.pending == [.force(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")])
        #expect(world.state.route == .experiments)
        try await world.settle()
        let forced = try world.store.forcedVariants()
        #expect(forced.count == 1)
        #expect(
            forced.first.map {
                $0.isSameChoice(
                    as: ForcedVariant(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")
                )
            } == true
        )
        #expect(forced.first?.forcedAt != nil)
        let row = try #require(world.lines.first { $0.hasPrefix(" ButtonColor ") })
        #expect(row.contains(" Blue "))
        #expect(row.contains(" F "))
        #expect(world.lines[29 - 1].contains("Forced ButtonColor to ButtonColorBlue."))
        #expect(world.text.contains("Now: ButtonColorBlue (forced)"))
    }

    @Test func choosingInactiveDeactivatesTheExperiment() async throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .enter, .end, .enter)
        #expect(world.pending == [.force(source: "Local", experiment: "ButtonColor", variant: nil)])
        try await world.settle()
        #expect(world.manager.value(for: "subscribeButtonColor") == nil)
        #expect(try #require(world.lines.first { $0.hasPrefix(" ButtonColor ") }).contains("Inactive"))
    }

    @Test func dropsTheForcedVariantWithD() async throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        try world.reload()
        world.press(.enter, .character("d"))
        #expect(world.pending == [.unforce(source: "Local", experiment: "ButtonColor")])
        try await world.settle()
        #expect(try world.store.forcedVariants().isEmpty)
        world.press(.character("d"))
        #expect(world.pending.isEmpty)
        #expect(world.state.message?.text == "ButtonColor is not forced.")
    }

    @Test func filterMatchesExperimentVariantAndKeyNamesCaseInsensitively() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("BUTT")
        #expect(world.state.rows.filter(\.isSelectable).map { $0.columns[0] } == ["ButtonColor"])
        #expect(world.lines[28].hasPrefix(" /BUTT"))
        world.press(.backspace, .backspace, .backspace, .backspace)
        world.type("pagecount")  // a key name
        #expect(
            world.state.rows.filter(\.isSelectable).map { $0.columns[0] } == [
                "OnboardingLongFlow", "OnboardingShortFlow",
            ]
        )
        world.type("zzz")
        #expect(world.text.contains("nothing matches \"pagecountzzz\""))
        world.press(.escape)
        #expect(world.state.frame.filter.isEmpty)
        #expect(!world.state.isEditingFilter)
        #expect(world.state.rows.filter(\.isSelectable).count == 6)
    }

    @Test func filterKeepsNavigationKeysAndEnterKeepsTheFilter() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("onboarding")
        world.press(.down)
        #expect(world.highlighted == "OnboardingShortFlow")
        world.press(.enter)
        #expect(!world.state.isEditingFilter)
        #expect(world.state.frame.filter == "onboarding")
        #expect(world.lines[28].contains("filter \"onboarding\": 2 shown"))
    }

    @Test func helpOverlayListsEveryKeyAndAnyKeyClosesIt() throws {
        let world = try ConsoleWorld.demo()
        world.press(.character("?"))
        let text = world.text
        for key in [
            "j k", "PgUp PgDn", "Home End", "Enter → l", "Esc ← h", "/", "r ", "u ", "q Ctrl-C", "click", "Tab",
            "Ctrl-U",
        ] {
            #expect(text.contains(key), "help lacks \(key)")
        }
        world.press(.character("x"))
        #expect(!world.state.showsHelp)
        #expect(!world.text.contains("Ctrl-C"))
    }

    @Test func resetAsksFirstAndNoKeepsEverything() async throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        try world.debug.force(variant: "Control", of: "ProfileRedesign")
        try world.reload()
        world.press(.character("r"))
        #expect(world.text.contains("Drop all 2 forced variants?"))
        world.press(.character("n"))
        #expect(world.pending.isEmpty)
        #expect(world.state.message?.text == "Cancelled.")
        world.press(.end, .enter)  // the Reset row on the main screen
        #expect(world.state.confirmation != nil)
        world.press(.character("y"))
        #expect(world.pending == [.reset(source: nil)])
        try await world.settle()
        #expect(try world.store.forcedVariants().isEmpty)
    }

    @Test func resetWithNothingForcedSaysSo() throws {
        let world = try ConsoleWorld.demo()
        world.press(.character("r"))
        #expect(world.state.confirmation == nil)
        #expect(world.state.message?.text == "No forced variants.")
    }

    @Test func settingsShowUpdateStatusAndResetPerSource() async throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        try world.reload()
        world.press(.end, .up, .enter)
        #expect(world.state.route == .settings)
        let lines = world.lines
        // ITEM is as wide as its longest text, OVERRIDES.
        #expect(lines[2].hasPrefix(" LOCAL     6 experiments"))
        #expect(lines[3].hasPrefix(" Update    fetch the sources again"))
        #expect(lines[4].hasPrefix(" Status    idle"))
        #expect(lines[5].hasPrefix(" Reset     drop 1 forced variant"))
        world.press(.enter)
        #expect(world.pending == [.update])
        try await world.settle()
        #expect(world.text.contains("Status    ok at 08:00:00"))
        world.press(.character("r"))
        #expect(world.text.contains("Drop the 1 forced variant of Local?"))
        world.press(.character("y"))
        #expect(world.pending == [.reset(source: "Local")])
    }

    @Test func settingsShowTheServerAndWhoUsesIt() throws {
        let world = try ConsoleWorld.demo(server: {
            ConsoleData.ServerInfo(
                url: "http://127.0.0.1:3100",
                openStreams: 2,
                requestsLastMinute: 7,
                lastClient: "127.0.0.1:50000"
            )
        })
        world.press(.end, .up, .enter)
        #expect(world.state.route == .settings)
        let text = world.text
        #expect(text.contains("SERVER    GrowthBook SDKs and OpenFeature OFREP"))
        #expect(text.contains("Address   http://127.0.0.1:3100"))
        #expect(
            text.contains("Clients   2 open streams · 7 requests in the last minute · last client 127.0.0.1:50000")
        )
    }

    @Test func settingsExportAndImportForcedVariantsThroughAFile() async throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorDarkGray", of: "ButtonColor")
        try world.reload()
        let path = NSTemporaryDirectory() + "lab-console-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }

        world.press(.end, .up, .enter)  // Settings
        #expect(world.text.contains("OVERRIDES"))
        world.press(.end, .up)  // Export
        #expect(world.highlighted == "Export")
        world.press(.enter)
        #expect(world.text.contains("Export forced variants to"))
        #expect(world.state.prompt?.text == "laboratory-overrides.json")
        for _ in 0..<"laboratory-overrides.json".count { world.press(.backspace) }
        world.type(path)
        world.press(.enter)
        #expect(world.pending == [.exportOverrides(path: path)])
        try await world.settle()
        #expect(world.state.message?.text == "Exported 1 forced variant to \(path).")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        try world.debug.reset()
        try world.reload()
        world.press(.end, .enter)  // Import
        for _ in 0..<"laboratory-overrides.json".count { world.press(.backspace) }
        world.type(path)
        world.press(.enter)
        try await world.settle()
        #expect(try world.store.forcedVariants().map(\.variant) == ["ButtonColorDarkGray"])

        world.press(.enter, .escape)
        #expect(world.state.prompt == nil)
        #expect(world.pending.isEmpty)
    }

    @Test func importingAnOverridesFileTakesItsUserIDAndNamesItsMistakesWithPositions() async throws {
        let world = try ConsoleWorld.demo()
        let scratch = try TemporaryFolder("lab-console")
        let folder = scratch.path
        let good = folder + "/good.json"
        try Data(#"{"version": 1, "attributes": {"userId": "qa-7"}, "requests": []}"#.utf8)
            .write(to: URL(fileURLWithPath: good))
        _ = try await world.environment.perform(.importOverrides(path: good))
        #expect(try world.environment.load().userID == "qa-7")
        let bad = folder + "/bad.json"
        try Data("{\"version\": 1,\n \"requests\": [3]}".utf8).write(to: URL(fileURLWithPath: bad))
        await #expect {
            try await world.environment.perform(.importOverrides(path: bad))
        } throws: { error in
            String(describing: error) == bad + ":2:15: forced variant 1 must be an object, found a number"
        }
        await #expect {
            try await world.environment.perform(.importOverrides(path: folder + "/absent.json"))
        } throws: { error in
            String(describing: error) == folder + "/absent.json: cannot read the file: no such file"
        }
    }

    @Test func assignmentsScreenListsEveryActiveKey() throws {
        let world = try ConsoleWorld.demo()
        world.press(.down, .enter)
        #expect(world.state.route == .assignments)
        #expect(world.lines[1].hasPrefix(" KEY"))
        #expect(world.lines[2].hasPrefix(" onboardingPageCount"))
        #expect(world.lines[2].contains("OnboardingShortFlow"))
        world.press(.enter)
        #expect(world.state.route == .variants(source: "Local", experiment: "OnboardingShortFlow"))
    }

    @Test func eventsScreenShowsNewestFirstAndFiltersByReason() throws {
        let world = try ConsoleWorld.demo()
        try world.manager.report(key: "subscribeButtonColor", reason: .displayed)
        try world.reload()
        world.press(.down, .down, .enter)
        #expect(world.state.route == .events)
        #expect(world.lines[2].contains("displayed"))
        #expect(world.lines[3].contains("activated"))
        world.press(.character("f"))
        #expect(world.state.eventReason == "activated")
        #expect(!world.lines[2...].contains { $0.contains("displayed") })
        world.press(.character("f"), .character("f"))
        #expect(world.state.eventReason == "displayed")
        #expect(world.state.rows.count == 1)
    }

    @Test func conflictsAreShownWithTheOtherExperimentNamed() throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "OnboardingLongFlowEightPages", of: "OnboardingLongFlow")
        try world.reload()
        #expect(world.lines[2].contains("1 conflict"))
        // The main screen counts as active what gives the app its keys, as Assignments does.
        #expect(world.lines[2].contains("5 active · 1 set aside"), "\(world.lines[2])")
        #expect(world.lines[3].contains("from 5 experiments"), "\(world.lines[3])")
        world.press(.enter, .down, .down)
        #expect(world.highlighted == "OnboardingShortFlow")
        // The loser's row says its variant is set aside, not that it runs.
        #expect(
            world.lines.contains { $0.hasPrefix(" OnboardingShortFlow") && $0.contains("set aside (FivePages)") },
            "\(world.text)"
        )
        // The detail pane names the other experiment, the key and the rule.
        #expect(
            world.pane.contains(
                "conflict: shares onboardingPageCount with Local/OnboardingLongFlow; OnboardingLongFlow wins because a forced experiment wins over one that is not"
            )
        )
        #expect(
            world.pane.contains(
                "result: this experiment was set aside; the app gets onboardingPageCount = 8 from Local/OnboardingLongFlow (OnboardingLongFlowEightPages)"
            )
        )
        // The losing row does not claim its variant reaches the app.
        #expect(world.pane.contains("Now: OnboardingShortFlowFivePages, set aside: Local/OnboardingLongFlow wins"))
        #expect(world.lines[28].contains("conflict: Local/OnboardingShortFlow shares onboardingPageCount"))
    }

    @Test func clickSelectsARowAndASecondClickOpensIt() throws {
        let world = try ConsoleWorld.demo()
        world.send(.click(row: 4, column: 3))
        #expect(world.highlighted == "Events")
        world.send(.click(row: 4, column: 3))
        #expect(world.state.route == .events)
        world.send(.click(row: 29, column: 3))
        #expect(world.state.route == .events)
    }

    @Test func listScrollsToKeepTheCursorInView() throws {
        let many = Catalog.simple((0..<60).map { (String(format: "Experiment%02d", $0), ["A", "B"]) })
        let world = try ConsoleWorld([many])
        world.press(.enter, .end)
        #expect(world.highlighted == "Experiment59")
        #expect(world.lines[27].hasPrefix(" Experiment59"))
        // The indicator counts experiments, not the section header, and sits on the status line.
        #expect(world.lines[28].hasSuffix("35–60 of 60"))
        #expect(!world.lines[27].contains(" of "))
        world.press(.home)
        #expect(world.lines[2].hasPrefix(" LOCAL"))
        #expect(world.lines[3].hasPrefix(" Experiment00"))
    }

    @Test func theTitleSaysWhichStateFileDeviceAndTokenAndWhetherStabilized() async throws {
        let world = try ConsoleWorld.demo()
        var data = world.state.data
        data.origin = "/var/lib/qa/laboratory/states/default.sqlite"
        world.state.replaceData(data)
        #expect(
            world.lines[0].hasSuffix("…/states/default.sqlite · device device-1 · token 0.3000"),
            "\(world.lines[0])"
        )
        try world.manager.stabilize()
        var stabilized = try world.environment.load()
        stabilized.origin = data.origin
        _ = ConsoleReducer.reduce(&world.state, .dataLoaded(stabilized))
        #expect(world.lines[0].hasSuffix("device device-1 · stabilized · token 0.3000"), "\(world.lines[0])")
        // On a narrow screen deep in the stack, the token stays and the path on the left keeps its room.
        _ = ConsoleReducer.reduce(&world.state, .input(.resize(TerminalSize(columns: 80, rows: 24))))
        world.press(.enter, .enter)
        #expect(world.lines[0].hasPrefix(" Laboratory › Experiments › ButtonColor"), "\(world.lines[0])")
        #expect(world.lines[0].hasSuffix("token 0.3000"))
    }

    @Test func eachScreenKeepsItsFilterWhenOpenedAgain() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("prof")
        world.press(.enter, .left)  // keep the filter, back to the main screen
        #expect(world.state.route == .main)
        world.press(.enter)
        #expect(world.state.frame.filter == "prof")
        #expect(world.highlighted == "ProfileRedesign")
        world.press(.escape)  // clears it, and it stays cleared
        world.press(.left, .enter)
        #expect(world.state.frame.filter == "")
    }

    @Test func theMouseWheelMovesThreeRowsANotch() throws {
        let many = Catalog.simple((0..<60).map { (String(format: "Experiment%02d", $0), ["A", "B"]) })
        let world = try ConsoleWorld([many])
        world.press(.enter)
        world.send(.wheel(lines: 3))
        #expect(world.highlighted == "Experiment03")
        world.send(.wheel(lines: -3))
        world.send(.wheel(lines: -3))
        #expect(world.highlighted == "Experiment00")  // stops at the first row, past the header
        world.press(.character("?"))
        world.send(.wheel(lines: 3))
        #expect(world.highlighted == "Experiment00")  // not under the help
    }

    @Test func theScrollIndicatorLeavesTheLastRowsFlagsVisible() async throws {
        let many = Catalog.simple((0..<60).map { (String(format: "Experiment%02d", $0), ["A", "B"]) })
        let world = try ConsoleWorld([many])
        world.press(.enter, .end, .enter, .down, .enter)  // force Experiment59's second choice
        try await world.settle()
        #expect(world.state.route == .experiments && world.highlighted == "Experiment59")
        let last = world.lines[27]
        #expect(last.hasPrefix(" Experiment59") && last.contains(" F"), "\(last)")
        #expect(world.lines[28].hasSuffix("35–60 of 60"), "\(world.lines[28])")
        // A long status message stops before the indicator.
        _ = ConsoleReducer.reduce(&world.state, .effectFinished(String(repeating: "x", count: 200), isError: true))
        #expect(
            world.lines[28].hasSuffix("…  35–60 of 60") || world.lines[28].hasSuffix("… 35–60 of 60"),
            "\(world.lines[28])"
        )
    }

    @Test func liveDataFromElsewhereRedrawsWithoutAKey() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter)
        #expect(try world.environment.hasChanged() == false)
        // Another process (here: the same store) forces a variant.
        try world.debug.force(variant: "ButtonColorDarkGray", of: "ButtonColor")
        #expect(try world.environment.hasChanged())
        try world.reload()
        #expect(try #require(world.lines.first { $0.hasPrefix(" ButtonColor ") }).contains(" DarkGray "))
    }

    @Test func resolvedAndWhitelistedExperimentsAreMarked() async throws {
        let experiments = [
            Experiment(
                name: "Resolved",
                keys: ["a"],
                variants: [
                    Variant(name: "Old", assignments: ["a": 1]), Variant(name: "Winner", assignments: ["a": 2]),
                ],
                baseline: "Old",
                winner: "Winner"
            ),
            Experiment(
                name: "Pinned",
                keys: ["b"],
                variants: [Variant(name: "Off", assignments: ["b": 0]), Variant(name: "On", assignments: ["b": 1])],
                baseline: "Off",
                subject: .user,
                whitelist: ["device-1": "On"]
            ),
            Experiment(
                name: "PinnedDevice",
                keys: ["c"],
                variants: [Variant(name: "Off", assignments: ["c": 0]), Variant(name: "On", assignments: ["c": 1])],
                baseline: "Off",
                whitelist: ["device-1": "On"]
            ),
        ]
        let world = try ConsoleWorld([Catalog(source: "Local", experiments: experiments)])
        world.press(.enter)
        let rows = world.lines
        #expect(try #require(rows.first { $0.hasPrefix(" Resolved ") }).contains(/\ Winner +R +│/))
        #expect(try #require(rows.first { $0.hasPrefix(" PinnedDevice ") }).contains(/\ On +W +│/))
        // A user-level experiment with nobody logged in is inactive, pins or not.
        #expect(try #require(rows.first { $0.hasPrefix(" Pinned ") }).contains("Inactive"))
        world.press(.end)
        #expect(world.pane.contains("resolved: everyone gets the winner, Winner"))
        world.press(.enter, .home, .enter)  // force Old on the resolved experiment
        #expect(world.pending == [.force(source: "Local", experiment: "Resolved", variant: "Old")])
        try await world.settle()
        #expect(world.highlighted == "Resolved")
        #expect(world.pane.contains("resolved: everyone gets the winner, Winner"))
        #expect(world.pane.contains("forced: forced to Old through the debug source"))
    }

    @Test func quitsOnQCtrlCAndSignals() throws {
        for input in [TerminalInput.key(.character("q")), .key(.interrupt), .terminate] {
            let world = try ConsoleWorld.demo()
            world.send(input)
            #expect(world.state.shouldQuit)
        }
    }

    @Test func aCutDetailPaneSaysSoAndScrollsWithTabOrShift() throws {
        let world = try ConsoleWorld.demo(size: TerminalSize(columns: 80, rows: 24))
        world.press(.enter, .down, .down, .down, .down, .down, .enter, .down)
        // The pane is longer than the screen: its last row says so, with the keys.
        #expect(world.text.contains("▼ more (Tab or Shift-↓ to scroll)"), "\(world.text)")
        let firstPane = world.pane
        world.press(.shiftDown)
        #expect(world.text.contains("▲ more") && world.pane != firstPane, "\(world.text)")
        world.press(.shiftUp)
        #expect(world.pane == firstPane)
        // Tab gives ↓ to the pane: the list's highlight stays where it was.
        let highlighted = world.highlighted
        world.press(.tab, .pageDown, .pageDown, .pageDown)
        #expect(world.highlighted == highlighted)
        #expect(world.text.contains("subscribeScreenFontSize = 12") && !world.text.contains("▼ more"), "\(world.text)")
        // Tab again: ↓ moves in the list, and a new row's pane starts at its top.
        world.press(.tab, .down)
        #expect(world.highlighted != highlighted && !world.text.contains("▲ more"), "\(world.text)")
    }

    @Test func ctrlUClearsTheFilterAndThePath() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("button")
        world.press(.clearLine)
        #expect(world.state.frame.filter.isEmpty && world.state.isEditingFilter)
        world.press(.escape, .escape, .end, .up, .enter)  // Settings
        world.press(.end, .up, .enter)  // Export
        #expect(world.state.prompt?.text == "laboratory-overrides.json")
        world.press(.clearLine)
        #expect(world.state.prompt?.text == "")
        world.type("qa.json")
        #expect(world.state.prompt?.text == "qa.json")
    }

    @Test func anEventOpensItsDetailPaneWithEveryField() throws {
        let world = try ConsoleWorld.demo(size: TerminalSize(columns: 120, rows: 40))
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor", tester: "ana")
        try world.reload()
        world.press(.down, .down, .enter)
        #expect(world.state.route == .events)
        #expect(!world.text.contains("│ Event "))
        let header = try #require(world.lines.first { $0.contains("TIME") })
        #expect(header.contains(" F ") && header.contains("DEVICE"), "\(header)")
        let forcedRow = try #require(world.lines.first { $0.contains("activated") && $0.contains("Blue") })
        #expect(forcedRow.contains(" F "), "\(forcedRow)")
        world.press(.enter)
        for field in [
            "reason: activated", "device: device-1", "source: Local", "experiment: ButtonColor",
            "variant: ButtonColorBlue", "key: subscribeButtonColor", "value: blue", "forced: yes by ana",
        ] {
            #expect(world.text.contains(field), "\(field) in\n\(world.text)")
        }
    }

    @Test func assignmentsOfAForcedVariantAreMarked() throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        try world.reload()
        world.press(.down, .enter)
        #expect(world.state.route == .assignments)
        let forced = try #require(world.lines.first { $0.contains("subscribeButtonColor") })
        #expect(forced.contains(" F "), "\(forced)")
        let drawn = try #require(world.lines.first { $0.contains("subscribeScreenFontSize") })
        #expect(!drawn.contains(" F "), "\(drawn)")
    }

    @Test func aCatalogProblemGoesWhenTheCatalogLoadsAgain() throws {
        let world = try ConsoleWorld.demo()
        _ = ConsoleReducer.reduce(&world.state, .catalogProblem("demo.json:3:5: expected a value"))
        #expect(world.text.contains("demo.json:3:5: expected a value"))
        _ = ConsoleReducer.reduce(&world.state, .catalogsRepaired)
        #expect(!world.text.contains("expected a value") && world.text.contains("loads again"), "\(world.text)")
        // Another message is not the catalog's to take away.
        world.state.message = StatusMessage("Forced ButtonColor to Blue.")
        _ = ConsoleReducer.reduce(&world.state, .catalogsRepaired)
        #expect(world.text.contains("Forced ButtonColor to Blue."))
    }
}
