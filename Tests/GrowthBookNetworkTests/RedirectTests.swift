import Foundation
import LabTestSupport
import Testing

@testable import GrowthBookNetwork

/// Redirects keep their scheme (or go from `http` to `https`): a redirect to
/// `file:///etc/passwd` was followed as `http` on the same host.
@Suite struct RedirectTests {
    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/payload", "gopher://127.0.0.1:70/"])
    func aRedirectToAnotherSchemeIsRefused(_ location: String) async throws {
        let served = Counter()
        let server = try TestHTTPServer { head in
            if head.hasPrefix("GET /etc/passwd") || head.hasPrefix("GET /payload") { _ = served.next() }
            return .response(status: 302, headers: ["Location": location], body: Data())
        }
        defer { server.stop() }
        let error = await #expect(throws: HTTPPayloadFetcher.Failure.self) {
            _ = try await HTTPPayloadFetcher(url: server.url).fetch(etag: nil)
        }
        #expect(error?.description.contains("redirect from http") == true, "\(String(describing: error))")
        #expect(served.value == 0)
    }

    @Test func aRedirectThatKeepsTheSchemeIsFollowed() async throws {
        let server = try TestHTTPServer { head in
            head.hasPrefix("GET /moved")
                ? .response(status: 200, headers: [:], body: Data(#"{"features": {}}"#.utf8))
                : .response(status: 301, headers: ["Location": "/moved"], body: Data())
        }
        defer { server.stop() }
        let fetched = try await HTTPPayloadFetcher(url: server.url).fetch(etag: nil)
        #expect(fetched == .payload(Data(#"{"features": {}}"#.utf8), etag: nil))
    }

    @Test func onlyTheSameSchemeOrAnUpgradeToHTTPSIsAllowed() {
        #expect(HTTPEndpoint.allowsRedirect(from: "http", to: "http"))
        #expect(HTTPEndpoint.allowsRedirect(from: "http", to: "https"))
        #expect(HTTPEndpoint.allowsRedirect(from: "https", to: "https"))
        #expect(!HTTPEndpoint.allowsRedirect(from: "https", to: "http"))
        #expect(!HTTPEndpoint.allowsRedirect(from: "http", to: "file"))
        #expect(!HTTPEndpoint.allowsRedirect(from: "http", to: ""))
    }
}
