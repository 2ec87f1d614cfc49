import Testing

@testable import LaboratoryConsole

/// SGR mouse reports (mode 1006), whose columns go past the 223 X10 can say.
@Suite struct SGRMouseReportTests {
    @Test func aLeftPressIsAClickAnywhereOnAWideScreen() {
        #expect(SGRMouseReport.input(from: "0;250;5M") == .click(row: 4, column: 249))
        #expect(SGRMouseReport.input(from: "0;1;1M") == .click(row: 0, column: 0))
        // With Shift, Meta or Control held, still a click.
        #expect(SGRMouseReport.input(from: "16;300;2M") == .click(row: 1, column: 299))
    }

    @Test func theWheelMovesThreeRows() {
        #expect(SGRMouseReport.input(from: "64;10;10M") == .wheel(lines: -3))
        #expect(SGRMouseReport.input(from: "65;240;10M") == .wheel(lines: 3))
    }

    @Test func releasesMotionOtherButtonsAndGarbageAreNothing() {
        for report in [
            "0;250;5m", "32;250;5M", "2;3;4M", "1;3;4M", "0;0;5M", "0;5M", "0;;5M", "a;1;1M", "0;1;1", "",
            "0;999999;1M", "0;１;1M",
        ] {
            #expect(SGRMouseReport.input(from: report) == nil, "\(report)")
        }
    }
}
