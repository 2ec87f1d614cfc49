import Foundation
import LabDrivers
import LabTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages ending in NUL on descriptors 3
/// and 4), so a test can open a page and read its DOM as it changes.
final class HeadlessChromium {
    /// Debian's `chromium`, if installed.
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let running: Subprocess.Running
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: String
    private var nextID = 0
    private var pending = [UInt8]()
    private var session: String?

    init() throws {
        guard let path = Self.path else { throw HarnessError("chromium is not installed") }
        profile = NSTemporaryDirectory() + "lab-chromium-\(UUID().uuidString)"
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw HarnessError("pipe failed") }
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
            "--user-data-dir=\(profile)", "about:blank",
        ]
        // Its singleton socket goes under TMPDIR: inside the profile, it is removed with it.
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        // Its ends of the pipes as descriptors 3 and 4, and a process group of
        // its own, so quitting reaches the renderer and helper processes too,
        // which otherwise write into the profile after it is removed.
        do {
            running = try Subprocess.start(
                path,
                arguments,
                environment: ["TMPDIR": profile],
                passing: [input[0], output[1]],
                ownProcessGroup: true
            )
        } catch {
            for end in input + output { close(end) }
            try? FileManager.default.removeItem(atPath: profile)
            throw HarnessError("\(error)")
        }
        close(input[0])
        close(output[1])
        toBrowser = input[1]
        fromBrowser = output[0]
    }

    /// Opens `url` in a new tab and attaches to it.
    func open(_ url: String) throws {
        let target = try call("Target.createTarget", ["url": url])
        guard let id = target["targetId"] as? String else { throw HarnessError("no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": id, "flatten": true])
        session = attached["sessionId"] as? String
    }

    /// Evaluates JavaScript in the page; its value, or `nil`.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true], inPage: true)
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Makes the tab's viewport `width` × `height` CSS pixels, as a phone's
    /// (touch, `mobile`) below 600 px wide, else as a desktop's.
    func setViewport(width: Int, height: Int) throws {
        _ = try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600],
            inPage: true
        )
    }

    /// A PNG of what the tab shows now.
    func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"], inPage: true)
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw HarnessError("no screenshot: \(result.keys)")
        }
        return data
    }

    /// Polls `expression` until it gives `expected` or `timeout` seconds pass.
    func waitFor(_ expression: String, toBe expected: String, timeout: TimeInterval) -> Bool {
        Poll.until(seconds: timeout) {
            (try? evaluate(expression)).flatMap { $0 }.map { "\($0)" } == expected ? true : nil
        } ?? false
    }

    private func call(_ method: String, _ parameters: [String: Any], inPage: Bool = false) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if inPage, let session { message["sessionId"] = session }
        let data = try JSONSerialization.data(withJSONObject: message) + Data([0])
        _ = data.withUnsafeBytes { write(toBrowser, $0.baseAddress, data.count) }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let zero = pending.firstIndex(of: 0) {
                let reply = Data(pending[..<zero])
                pending.removeFirst(zero + 1)
                let object = try JSONSerialization.jsonObject(with: reply) as? [String: Any] ?? [:]
                guard object["id"] as? Int == nextID else { continue }  // an event, or another reply
                if let error = object["error"] { throw HarnessError("\(method): \(error)") }
                return object["result"] as? [String: Any] ?? [:]
            }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(fromBrowser, &buffer, buffer.count)
            if count <= 0 { throw HarnessError("chromium closed its pipe") }
            pending += buffer[0..<count]
        }
        throw HarnessError("\(method): no answer from chromium")
    }

    func quit() {
        kill(-running.pid, SIGTERM)
        _ = running.wait()  // and its output's files are removed
        kill(-running.pid, SIGKILL)  // helpers still finishing
        close(toBrowser)
        close(fromBrowser)
        try? FileManager.default.removeItem(atPath: profile)
    }
}
