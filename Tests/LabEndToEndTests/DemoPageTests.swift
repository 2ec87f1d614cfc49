import Foundation
import Testing

/// The `/demo` page in a real browser: headless Chromium loads it from
/// `lab serve`, QA forces a variant, and the page redraws and reports.
@Suite(
    .enabled(if: HeadlessChromium.path != nil, "chromium is not installed: apt-get install chromium (as .ci/run does)")
)
struct DemoPageTests {
    @Test func theDemoPageRedrawsWhenAVariantIsForcedAndReportsWhatItShowed() throws {
        let lab = try LabHarness()
        #expect(try lab.run("force", "ButtonColor", "ButtonColorRed").status == 0)
        let serving = try LabServe(lab)
        defer { serving.stop() }
        let browser = try HeadlessChromium()
        defer { browser.quit() }
        try browser.open(serving.base + "/demo?key=demo")
        let color = "document.getElementById('subscribe').dataset.color"
        #expect(browser.waitFor(color, toBe: "red", timeout: 20))
        #expect(try lab.run("force", "ButtonColor", "ButtonColorBlue").status == 0)
        let clock = ContinuousClock()
        let forcedAt = clock.now
        #expect(browser.waitFor(color, toBe: "blue", timeout: 20))
        #expect(clock.now - forcedAt < .seconds(10))  // a fraction of a second in practice; this proves it came live
        // The page's own exposure, back in the event table.
        let deadline = Date().addingTimeInterval(20)
        var events = ""
        repeat {
            events = try lab.run("events", "--reason", "displayed", "--format", "jsonl").stdout
            if events.contains("ButtonColorBlue") { break }
            usleep(50_000)
        } while Date() < deadline
        #expect(events.contains("\"variant\":\"ButtonColorBlue\""), "\(events)")
    }
}
