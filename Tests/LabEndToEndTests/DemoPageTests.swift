import Foundation
import LabDrivers
import LabTestSupport
import Testing

/// The `/demo` page in a real browser: headless Chromium loads it from
/// `lab serve`, QA forces a variant, and the page redraws and reports.
@Suite(
    .requires(HeadlessChromium.path != nil, "chromium is not installed: apt-get install chromium (as .ci/run does)")
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
        let events = try Poll.until(seconds: 20, every: 0.05) {
            let rows = try lab.run("events", "--reason", "displayed", "--format", "jsonl").stdout
            return rows.contains("ButtonColorBlue") ? rows : nil
        }
        #expect(events?.contains("\"variant\":\"ButtonColorBlue\"") == true, "\(events ?? "none")")
    }

    /// From a phone to a projector: no sideways scrolling at 360×740 or
    /// 1920×1080, and a forced variant wears its badge at both.
    @Test(arguments: [(360, 740), (1920, 1080)])
    func theDemoPageFitsItsScreenAndBadgesAForcedVariant(width: Int, height: Int) throws {
        let lab = try LabHarness()
        let serving = try LabServe(lab)
        defer { serving.stop() }
        let browser = try HeadlessChromium()
        defer { browser.quit() }
        try browser.open(serving.base + "/demo?key=demo")
        try browser.setViewport(width: width, height: height)
        let table = "document.getElementById('assignments').rows.length"
        #expect(browser.waitFor(table, toBe: "4", timeout: 20))
        // Booleans as text: the protocol's JSON reads them back as numbers.
        let badge = "String(document.getElementById('forced').hidden)"
        #expect(browser.waitFor(badge, toBe: "true", timeout: 20), "nothing is forced yet")
        let fits = "String(document.documentElement.scrollWidth <= window.innerWidth)"
        #expect(browser.waitFor("window.innerWidth", toBe: "\(width)", timeout: 20))
        #expect(browser.waitFor(fits, toBe: "true", timeout: 5), "\(scrollWidth(browser)) > \(width)")

        #expect(try lab.run("force", "ButtonColor", "ButtonColorDarkGray").status == 0)
        #expect(browser.waitFor(badge, toBe: "false", timeout: 20))
        let text = try browser.evaluate("document.getElementById('forced').textContent") as? String
        #expect(text == "forced by QA: ButtonColor → ButtonColorDarkGray")
        // The badge and the longest row still fit.
        #expect(browser.waitFor(fits, toBe: "true", timeout: 5), "\(scrollWidth(browser)) > \(width)")
        let png = try browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let path = lab.folder + "/demo-\(width)x\(height).png"
        try png.write(to: URL(fileURLWithPath: path))
        // Unforced, the badge goes.
        #expect(try lab.run("unforce", "ButtonColor").status == 0)
        #expect(browser.waitFor(badge, toBe: "true", timeout: 20), "screenshot of the forced page: \(path)")
    }

    /// How wide the page is, for a failure's message.
    private func scrollWidth(_ browser: HeadlessChromium) -> String {
        ((try? browser.evaluate("document.documentElement.scrollWidth")) ?? nil).map { "\($0)" } ?? "?"
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
