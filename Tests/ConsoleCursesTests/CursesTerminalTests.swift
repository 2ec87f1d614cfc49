import CNcursesw
import LaboratoryConsole
import Testing

@testable import ConsoleCurses

/// ncurses has one global screen, so these run one at a time.
@Suite(.serialized) struct CursesTerminalTests {
    @Test func drawsWideTextWhereTheBufferPutsIt() throws {
        let terminal = try CursesTerminal.headless(size: TerminalSize(columns: 40, rows: 5))
        defer { terminal.close() }
        #expect(terminal.size == TerminalSize(columns: 40, rows: 5))
        var buffer = ScreenBuffer(width: 40, height: 5)
        buffer.write("实验 🎉 done", row: 1, column: 2)
        buffer.write("plain", row: 2, column: 0, style: .selected)
        buffer.write("end", row: 1, column: 20)
        terminal.draw(buffer)
        // Wide characters come back once each; "end" still starts at column 20.
        #expect(terminal.text(ofRow: 1) == "  实验 🎉 done      end")
        #expect(terminal.text(ofRow: 2) == "plain")
    }

    @Test func clustersNcursesWouldSplitAreWrittenWholeOverBlanks() throws {
        let terminal = try CursesTerminal.headless(size: TerminalSize(columns: 40, rows: 3))
        defer { terminal.close() }
        for (text, width, needed) in [
            ("👨‍👩‍👧‍👦", 2, true), ("👍🏽", 2, true), ("e\u{301}", 1, false), ("a", 1, false), ("实", 2, false),
            ("e\u{301}\u{302}\u{303}\u{304}\u{305}", 1, true),
            // A terminal that draws the modifier on its own agrees with ncurses: no overlay.
            ("👍🏽", 4, false), ("👨‍👩‍👧", 6, false),
        ] {
            #expect(ClusterOverlay.isNeeded(for: text, width: width) == needed, "\(text)")
        }
        #expect(TerminalProbe.column(in: Array("x\u{1B}[12;5R".utf8)) == 5)
        #expect(TerminalProbe.column(in: Array("\u{1B}[12R".utf8)) == nil)
        var buffer = ScreenBuffer(width: 40, height: 3)
        buffer.write("a👍🏽b", row: 1, column: 0, style: .selected)
        terminal.draw(buffer)
        // ncurses holds blanks of the cluster's width, so "b" stays in column 3.
        #expect(terminal.text(ofRow: 1) == "a  b")
        let bytes = ClusterOverlay.bytes(
            for: [ClusterOverlay(row: 1, column: 1, text: "👍🏽", style: .selected)],
            palette: CursesPalette(colors: false)
        )
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}7\u{1B}[2;2H\u{1B}[0;7m👍🏽\u{1B}8")
    }

    @Test func layoutWidthsAgreeWithTheCLibrary() throws {
        let terminal = try CursesTerminal.headless(size: TerminalSize(columns: 20, rows: 3))
        defer { terminal.close() }
        for character in ["a", "é", "实", "한", "ｱ", "🎉", "🥳", "─", "…"] as [Character] {
            let scalar = character.unicodeScalars.first!
            #expect(Int(lab_wcwidth(wchar_t(bitPattern: scalar.value))) == TextWidth.of(character), "\(character)")
        }
    }

    @Test func colourRolesBecomeAttributesAndNoColorKeepsOnlyBoldAndReverse() throws {
        let terminal = try CursesTerminal.headless(size: TerminalSize(columns: 20, rows: 3), colors: false)
        defer { terminal.close() }
        let palette = CursesPalette(colors: false)
        #expect(palette.attributes(for: .selected) & lab_a_reverse() != 0)
        #expect(palette.attributes(for: CellStyle(role: .error, bold: true)) & lab_a_bold() != 0)
        #expect(palette.attributes(for: .plain) == lab_a_normal())
    }

    @Test func mapsKeysAsTheConsoleExpects() {
        #expect(CursesKeys.character(3) == .interrupt)
        #expect(CursesKeys.character(13) == .enter)
        #expect(CursesKeys.character(27) == .escape)
        #expect(CursesKeys.character(127) == .backspace)
        #expect(CursesKeys.character(UInt32(("j" as Unicode.Scalar).value)) == .character("j"))
        #expect(CursesKeys.character(0x5B9E) == .character("实"))
        #expect(CursesKeys.character(1) == nil)
        #expect(CursesKeys.function(KEY_UP) == .up)
        #expect(CursesKeys.function(KEY_NPAGE) == .pageDown)
        #expect(CursesKeys.function(KEY_HOME) == .home)
    }

    @Test func anUnknownTerminalTypeIsAClearError() {
        #expect(CursesError.unknownTerminal("vt9000").description.contains("unknown terminal type \"vt9000\""))
    }
}
