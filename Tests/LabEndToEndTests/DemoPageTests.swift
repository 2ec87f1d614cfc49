import Foundation
import LabTestSupport
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

    /// A served value is text, never style: `url(…)` as a colour made the page fetch it.
    @Test func aValueThatIsCSSIsNotUsedAsStyle() throws {
        let beacon = Box(0)
        let server = try TestHTTPServer { _ in
            beacon.value += 1
            return .response(status: 200, headers: [:], body: Data())
        }
        defer { server.stop() }
        let lab = try LabHarness()
        let value = "url(http://127.0.0.1:\(server.port)/beacon)"
        let catalog = try lab.write(
            "css.json",
            """
            {"source": "Local", "experiments": [{"name": "Paint", "keys": ["subscribeButtonColor"], "baseline": "Url",
              "variants": [{"name": "Url", "assignments": {"subscribeButtonColor": "\(value)"}}]}]}
            """
        )
        let serving = try LabServe(lab, ["--catalog", catalog])
        defer { serving.stop() }
        let browser = try HeadlessChromium()
        defer { browser.quit() }
        try browser.open(serving.base + "/demo?key=demo")
        let button = "document.getElementById('subscribe')"
        #expect(browser.waitFor("\(button).dataset.color", toBe: value, timeout: 20))
        #expect(browser.waitFor("getComputedStyle(\(button)).backgroundImage", toBe: "none", timeout: 20))
        #expect(beacon.value == 0)
    }
}
