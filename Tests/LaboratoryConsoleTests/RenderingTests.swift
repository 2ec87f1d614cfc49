import Laboratory
import Testing

@testable import LaboratoryConsole

@Suite struct RenderingTests {
    @Test func belowEightyByTwentyFourSaysSoAndRecoversOnResize() throws {
        let world = try ConsoleWorld.demo()
        world.press(.enter)
        world.send(.resize(TerminalSize(columns: 60, rows: 20)))
        let small = world.lines
        #expect(small.count == 20)
        #expect(small.contains { $0.contains("terminal too small (needs 80×24)") })
        #expect(small.contains { $0.contains("now 60×20") })
        // Keys other than q do nothing while too small.
        world.press(.enter, .escape)
        #expect(world.state.route == .experiments)
        world.send(.resize(TerminalSize(columns: 100, rows: 30)))
        #expect(world.lines[0].hasPrefix(" Laboratory › Experiments"))
        world.send(.resize(TerminalSize(columns: 80, rows: 24)))
        #expect(world.lines.count == 24)
        #expect(world.lines[23].contains("quit"))
        #expect(world.lines[0].hasPrefix(" Laboratory › Experiments"))
    }

    @Test func resizeKeepsTheCursorInView() throws {
        let many = Catalog.simple((0..<60).map { ("E\($0 + 100)", ["A"]) })
        let world = try ConsoleWorld([many])
        world.press(.enter, .end)
        world.send(.resize(TerminalSize(columns: 80, rows: 24)))
        #expect(world.lines.contains { $0.hasPrefix(" E159") })
    }

    @Test func wideCharactersTakeTwoColumnsAndKeepColumnsAligned() throws {
        let catalog = Catalog.simple(
            [("实验颜色", ["红色", "蓝色"]), ("Emoji🎉Test", ["Party🥳", "Plain"])],
            key: { _ in "k" + String(Int.random(in: 0..<1)) }
        )
        let world = try ConsoleWorld([
            Catalog(source: "Local", experiments: [catalog.experiments[0]]),
            Catalog(source: "Fun", experiments: [catalog.experiments[1]]),
        ])
        world.press(.enter)
        let screen = world.screen
        // The divider sits in the same column on every row: wide text did not shift it.
        let divider = world.state.layout.listWidth(for: .experiments)
        for row in 1..<(screen.height - 2) {
            #expect(screen[row, divider].text == "│", "row \(row): \(screen.line(row))")
        }
        let chinese = try #require((0..<screen.height).first { screen.line($0).hasPrefix(" 实验颜色") })
        // EXPERIMENT is as wide as its widest name, Emoji🎉Test (11 columns).
        #expect(screen.line(chinese).hasPrefix(" 实验颜色    红色"))
        #expect(screen[chinese, 1].text == "实")
        #expect(screen[chinese, 2].isContinuation)
        #expect(TextWidth.of("🎉") == 2)
        #expect(TextWidth.of("实验") == 4)
        #expect(TextWidth.of("e\u{301}") == 1)
    }

    @Test func graphemeClustersStayWholeInOneCellAndAreCutOnlyBetweenClusters() {
        let clusters = ["👨‍👩‍👧‍👦", "👍🏽", "🇳🇿", "e\u{301}", "👩‍💻"]
        var buffer = ScreenBuffer(width: 30, height: 1)
        buffer.write(clusters.joined(separator: "|") + "|end", row: 0, column: 0)
        #expect(buffer.line(0) == clusters.joined(separator: "|") + "|end")
        var column = 0
        for cluster in clusters {
            #expect(buffer[0, column].text == cluster, "\(cluster)")
            let width = TextWidth.of(Character(cluster))
            if width == 2 { #expect(buffer[0, column + 1].isContinuation, "\(cluster)") }
            column += width + 1  // and the separator
        }
        let unicode = TextWidth.ClusterRules.unicode
        for (cluster, width) in [("👨‍👩‍👧‍👦", 2), ("👍🏽", 2), ("🇳🇿", 2), ("❤️", 2), ("1️⃣", 2), ("e\u{301}", 1)] {
            #expect(TextWidth.of(Character(cluster), rules: unicode) == width, "\(cluster)")
        }
        // tmux 3.3's rules, as measured: modifiers apart, ZWJ joined, VS16 ignored.
        let tmux = TextWidth.ClusterRules(modifiersJoin: false, joinersJoin: true, selectorWidens: false)
        for (cluster, width) in [("👨‍👩‍👧", 2), ("👍🏽", 4), ("🇳🇿", 2), ("❤️", 1), ("e\u{301}", 1)] {
            #expect(TextWidth.of(Character(cluster), rules: tmux) == width, "\(cluster)")
        }
        let apart = TextWidth.ClusterRules(modifiersJoin: false, joinersJoin: false, selectorWidens: false)
        #expect(TextWidth.of(Character("👨‍👩‍👧"), rules: apart) == 6)
        // Cut between clusters, never inside one.
        #expect(DisplayText.truncate("ab👨‍👩‍👧‍👦cd", to: 5) == "ab👨‍👩‍👧‍👦…")
        #expect(DisplayText.truncate("ab👨‍👩‍👧‍👦cd", to: 4) == "ab…")
        #expect(
            DisplayText.wrap("x👍🏽y👍🏽z", to: 4, indent: 0).allSatisfy {
                !$0.unicodeScalars.contains("\u{1F3FD}") || $0.contains("👍🏽")
            }
        )
    }

    @Test func longTextIsCutWithAnEllipsisNeverInsideAWideCharacter() {
        #expect(DisplayText.truncate("SubscriptionScreenTheme", to: 10) == "Subscript…")
        #expect(DisplayText.truncate("实验颜色实验", to: 6) == "实验…")
        #expect(DisplayText.truncate("实验颜色实验", to: 5) == "实验…")
        #expect(DisplayText.truncate("short", to: 10) == "short")
        var buffer = ScreenBuffer(width: 8, height: 1)
        buffer.write("ab实验颜色", row: 0, column: 0)
        #expect(buffer.line(0) == "ab实验…")
        buffer.write("x", row: 0, column: 3)  // lands on the right half of 实
        #expect(buffer.line(0) == "ab x验…")
    }

    @Test func controlCharactersAndEscapeSequencesAreShownEscaped() throws {
        let evil = Catalog.simple([("Evil\u{1B}[2JName", ["Bell\u{07}", "Line\nBreak"]), ("Bidi\u{202E}Trick", ["A"])])
        let world = try ConsoleWorld([evil])
        world.press(.enter)
        let screen = world.screen
        for cell in screen.cells {
            #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E })
        }
        #expect(world.text.contains("Bidi\\u{202E}Trick"))
        world.press(.down)
        #expect(world.text.contains("Evil\\e[2JName"))
        world.press(.enter)
        #expect(world.text.contains("Bell\\x07"))
        #expect(world.text.contains("Line\\nBreak"))
    }

    @Test func wrapBreaksAtSpacesAndInsideLongWords() {
        #expect(DisplayText.wrap("one two three", to: 8) == ["one two", "  three"])
        #expect(DisplayText.wrap("abcdefghij", to: 6, indent: 2) == ["abcdef", "  ghij"])
        #expect(DisplayText.wrap("fits", to: 10) == ["fits"])
        // The first line keeps its indentation (lab-demo's assignment lines lost it).
        #expect(
            DisplayText.wrap("  key = value   (Experiment / Variant)", to: 20, indent: 4) == [
                "  key = value", "    (Experiment /", "    Variant)",
            ]
        )
    }

    @Test func overlaysDrawOnTopOfTheScreen() throws {
        let world = try ConsoleWorld.demo()
        try world.debug.force(variant: "ButtonColorBlue", of: "ButtonColor")
        try world.reload()
        world.press(.character("r"))
        let lines = world.lines
        let question = try #require(lines.firstIndex { $0.contains("Drop the 1 forced variant?") })
        #expect(lines[question - 1].contains("┌"))
        #expect(lines[question + 2].contains("Enter/y  yes, drop them    Esc/n  no, keep them"))
    }
}
