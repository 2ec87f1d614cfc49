import Foundation
import Laboratory
import Testing

@testable import LaboratoryConsole

/// Columns sized to their content, short variant names, the detail pane's
/// width, and what the filter shows of its matches.
@Suite struct ListLayoutTests {
    @Test func columnsGetWhatTheyNeedAndTheSpareColumnTheRest() {
        #expect(ListColumns.fit([5, 10, 3], into: 30, spare: 1) == [5, 22, 3])
        // Too little room: the widest give way first and the narrow keep all they need.
        #expect(ListColumns.fit([5, 40, 30], into: 40, spare: 1) == [5, 18, 17])
        #expect(ListColumns.fit([8, 11, 60, 60, 80], into: 100, spare: 4) == [8, 11, 27, 27, 27])
        // Whatever the room, the widths add up to it.
        for room in 10...120 {
            let widths = ListColumns.fit([8, 11, 30, 25, 90], into: room, spare: 4)
            #expect(widths.reduce(0, +) == room, "room \(room): \(widths)")
        }
    }

    @Test func variantNamesLoseTheirExperimentsNameWhereAWordStarts() {
        #expect(VariantName.shown("ButtonColorRed", under: "ButtonColor") == "Red")
        #expect(VariantName.shown("checkout.fast", under: "checkout") == "fast")
        #expect(VariantName.shown("onboarding_v2", under: "onboarding") == "v2")
        #expect(VariantName.shown("Control", under: "ProfileRedesign") == "Control")
        // Not in the middle of a word, and never down to nothing.
        #expect(VariantName.shown("Buttonish", under: "Button") == "Buttonish")
        #expect(VariantName.shown("ButtonColor", under: "ButtonColor") == "ButtonColor")
        #expect(VariantName.shown("ButtonColor.", under: "ButtonColor") == "ButtonColor.")
        // Scripts without case start a word anywhere.
        #expect(VariantName.shown("按钮颜色蓝色", under: "按钮颜色") == "蓝色")
    }

    @Test func longNamesAreCutInTheMiddleSoTheDifferenceShows() {
        let first = DisplayText.truncateMiddle("ExperimentalSinglePageFlowWithSearchAndFilters", to: 24)
        let second = DisplayText.truncateMiddle("ExperimentalSinglePageFlowWithoutSearchOrFilters", to: 24)
        #expect(first != second)
        // Names whose ends are cut alike are cut elsewhere; names already apart keep their end cut.
        let cuts = DisplayText.distinctCuts(
            ["ExperimentalSinglePageFlowWithSearch", "ExperimentalSinglePageFlowWithoutSearch", "OnboardingShort"],
            to: 12
        )
        #expect(Set(cuts).count == 3 && cuts[2] == "OnboardingS…", "\(cuts)")
        let alike = DisplayText.distinctCuts(["SubscriptionAAAAAAAAAXFlow", "SubscriptionAAAAAAAAAYFlow"], to: 12)
        #expect(Set(alike).count == 2 && alike.allSatisfy { TextWidth.of($0) <= 12 }, "\(alike)")
        #expect(TextWidth.of(first) == 24 && TextWidth.of(second) == 24)
        #expect(first.contains("…") && first.hasPrefix("Experimental") && first.hasSuffix("Filters"))
        // Wide characters are never split, and what fits is left alone.
        let wide = DisplayText.truncateMiddle("实验性的单页流程带搜索和筛选功能", to: 11)
        #expect(TextWidth.of(wide) <= 11 && wide.hasSuffix("功能"), "\(wide)")
        #expect(DisplayText.truncateMiddle("Short", to: 10) == "Short")
    }

    @Test func twoLongVariantNamesStayApartInTheList() throws {
        let long = """
            {"source": "Long", "experiments": [
              {"name": "Flow", "keys": ["flow"], "baseline": "ExperimentalSinglePageFlowWithSearchAndFilters", "variants": [
                {"name": "ExperimentalSinglePageFlowWithSearchAndFilters", "weight": 1, "assignments": {"flow": "a"}},
                {"name": "ExperimentalSinglePageFlowWithoutSearchOrFilters", "weight": 1, "assignments": {"flow": "b"}}]}]}
            """
        let catalog = try CatalogDecoder().decode(Data(long.utf8), file: "long.json")
        let world = try ConsoleWorld([catalog], size: TerminalSize(columns: 80, rows: 24))
        world.press(.enter)
        world.press(.enter)
        let text = world.text
        #expect(text.contains("Filters"), "\(text)")
        let cut = text.split(separator: "\n").filter { $0.contains("Experimental") && $0.contains("…") }
        #expect(cut.count == 2 && Set(cut.map { $0.trimmingCharacters(in: .whitespaces) }).count == 2, "\(text)")
    }

    @Test func namesStayWholeAt80By24() throws {
        let world = try ConsoleWorld.demo(size: TerminalSize(columns: 80, rows: 24))
        world.press(.enter)
        let text = world.text
        for name in ["SubscriptionScreenTheme SmallBlue", "SubscriptionPromptImage Mountains", "OnboardingShortFlow"] {
            #expect(text.contains(name), "\(name) in\n\(text)")
        }
        #expect(!text.contains("…"), "\(text)")
    }

    @Test func theEventsKeyValueColumnGetsTheSpareWidth() throws {
        let world = try ConsoleWorld.demo(size: TerminalSize(columns: 120, rows: 30))
        // Fits when the other columns take only what they need; cut to a fifth of the row if shared evenly.
        let value = String(repeating: "long value ", count: 2)
        try world.events.record([
            Event(
                time: Date(timeIntervalSince1970: 1_800_000_100),
                device: "device-1",
                source: "Local",
                experiment: "ButtonColor",
                variant: "ButtonColorRed",
                key: "subscribeButtonColor",
                value: .string(value),
                reason: .displayed
            )
        ])
        try world.reload()
        world.press(.down, .down, .enter)
        #expect(world.state.route == .events)
        let row = try #require(world.lines.first { $0.contains("displayed") })
        #expect(row.contains(/\ ButtonColor +Red +device-1 +subscribeButtonColor/))
        #expect(row.hasSuffix("subscribeButtonColor = \(value)".trimmingCharacters(in: .whitespaces)), "\(row)")
    }

    @Test func pWidensThenHidesThenShowsTheDetailPane() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter)
        let normal = world.state.layout.listWidth(for: .experiments)
        #expect(world.screen[3, normal].text == "│")
        world.press(.character("p"))
        #expect(world.state.pane == .wide)
        let wide = world.state.layout.listWidth(for: .experiments)
        #expect(wide < normal)
        #expect(world.screen[3, wide].text == "│")
        #expect(world.lines[world.state.layout.statusRow].contains("Detail pane wide"))
        world.press(.character("p"))
        #expect(world.state.pane == .hidden)
        #expect(!world.text.contains("│"))
        #expect(!world.text.contains("device-level"))
        // The list takes the whole width: the flags column moves to the right edge.
        #expect(world.state.layout.listWidth(for: .experiments) == 100)
        world.press(.character("p"))
        #expect(world.state.pane == .normal)
        #expect(world.screen[3, normal].text == "│")
        // The pane's width holds on the variants screen too.
        world.press(.character("p"), .enter)
        #expect(world.state.pane == .wide)
        #expect(world.screen[3, world.state.layout.listWidth(for: world.state.route)].text == "│")
    }

    @Test func theFilterMarksWhatItMatched() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("promptim")
        let screen = world.screen
        let row = try #require((0..<screen.height).first { screen.line($0).hasPrefix(" SubscriptionPromptImage") })
        let marked = (0..<screen.width).filter { screen[row, $0].style.underline }
        // "PromptImage" starts at column 1 + "Subscription".count; "promptim" is 8 columns.
        #expect(marked == Array(13..<21))
    }

    @Test func aRowMatchedByANameItDoesNotShowSaysWhich() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter, .character("/"))
        world.type("subscribebuttonc")
        world.press(.enter)
        let row = try #require(world.lines.first { $0.hasPrefix(" ButtonColor") })
        // In the room the first column has left, and whole on the status line.
        #expect(row.contains("ButtonColor (key subsc…"), "\(row)")
        #expect(world.lines[world.state.layout.statusRow].contains("highlighted: matched key subscribeButtonColor"))
        // A name the row shows needs no reason.
        world.press(.escape, .character("/"))
        world.type("buttoncol")
        #expect(!world.text.contains("(key"))
    }

    @Test func settingsListTheAppsAndForcingWarnsWhereItChangesNothing() async throws {
        let world = try ConsoleWorld.demo()
        let force = ConsoleEffect.force(source: "Local", experiment: "ButtonColor", variant: "ButtonColorBlue")
        #expect(try await world.environment.perform(force) == "Forced ButtonColor to ButtonColorBlue.")
        try world.store.recordAppWiring(AppWiring(app: "shop", hasDebugSource: false))
        try world.store.recordAppWiring(AppWiring(app: "shop-qa", hasDebugSource: true))
        try world.reload()
        world.press(.end, .up, .enter)
        #expect(world.state.route == .settings)
        let shop = try #require(world.lines.first { $0.hasPrefix(" shop ") })
        #expect(shop.contains("no debug source (a release build?): forcing changes nothing there"), "\(shop)")
        #expect(world.text.contains("shop-qa"), "\(world.text)")
        #expect(
            try await world.environment.perform(force)
                == "Forced ButtonColor to ButtonColorBlue. Warning: shop has no debug source and ignores forced variants."
        )
    }

    @Test func settingsSayWhenASourceFetchesNext() throws {
        let next = Date(timeIntervalSince1970: 1_800_000_030)
        let world = try ConsoleWorld.demo(schedules: { ["Local": FetchSchedule(next: next, interval: 30)] })
        world.press(.end, .up, .enter)
        #expect(world.state.route == .settings)
        #expect(world.text.contains("Next fetch 08:00:30, then every 30 seconds"), "\(world.text)")
        let without = try ConsoleWorld.demo()
        without.press(.end, .up, .enter)
        #expect(!without.text.contains("Next fetch"))
    }
}

/// A GrowthBook rule's `name` is what people call the experiment its key names.
@Suite struct ExperimentTitleTests {
    @Test func aTitleIsShownInThePaneAndFoundByTheFilter() throws {
        var experiment = Experiment(
            name: "exp-7f3a",
            keys: ["checkout"],
            variants: [
                Variant(name: "Control", weight: 1, assignments: ["checkout": .string("old")]),
                Variant(name: "Redesign", weight: 1, assignments: ["checkout": .string("new")]),
            ],
            baseline: "Control"
        )
        experiment.title = "Checkout redesign"
        let world = try ConsoleWorld([Catalog(source: "Remote", experiments: [experiment])])
        world.press(.enter)
        #expect(world.text.contains("“Checkout redesign”"), "\(world.text)")
        world.press(.character("/"))
        world.type("kout re")
        world.press(.enter)
        #expect(world.text.contains("matched name Checkout redesign"), "\(world.text)")
    }
}
