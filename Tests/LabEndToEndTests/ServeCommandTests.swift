import Foundation
import LabDrivers
import LabTestSupport
import Synchronization
import Testing

/// `lab serve` in front of an upstream GrowthBook server: a new upstream
/// payload reaches the apps' streams without a restart.
@Suite struct ServeCommandTests {
    @Test func aNewUpstreamPayloadReachesOpenStreams() throws {
        let lab = try LabHarness()
        let color = Mutex("green")
        let upstream = try TestHTTPServer { _ in
            let value = color.withLock { $0 }
            let payload = #"{"features": {"headline": {"defaultValue": "none", "rules": [{"force": "\#(value)"}]}}}"#
            return .response(status: 200, headers: [:], body: Data(payload.utf8))
        }
        defer { upstream.stop() }
        let serving = try LabServe(
            lab,
            ["--growthbook", upstream.url.absoluteString, "--refresh-interval", "1"]
        )
        defer { serving.stop() }
        let port = try #require(Int(serving.base.split(separator: ":").last ?? ""))
        let stream = try LoopbackConnection(port: port)
        defer { stream.close() }
        stream.send("GET /sub/key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The first fetch may land before or after the stream opens: either way "green" arrives.
        #expect(stream.read(until: "\"green\"", timeout: 20))
        color.withLock { $0 = "purple" }
        #expect(stream.read(until: "\"purple\"", timeout: 20))
    }

    @Test func aPortInUseIsAClearError() throws {
        let lab = try LabHarness()
        let first = try LabServe(lab)
        defer { first.stop() }
        let port = String(first.base.split(separator: ":").last ?? "")
        let second = try lab.run("serve", "--port", port)
        #expect(second.status == 1)
        #expect(second.stderr.contains("cannot serve on 127.0.0.1:\(port)"), "\(second.stderr)")
    }
}
