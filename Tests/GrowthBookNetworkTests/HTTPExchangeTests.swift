import Foundation
import LabTestSupport
import Testing

@testable import GrowthBookNetwork

/// The HTTP client under the fetcher and `lab --connect`, against a real
/// server on 127.0.0.1: what it sends, and each bound it keeps.
@Suite struct HTTPExchangeTests {
    private func exchange(_ url: URL, maximumBytes: Int = 1 << 20, maximumRedirects: Int = 5) -> HTTPExchange {
        HTTPExchange(
            .GET,
            url,
            headers: [("Accept", "application/json")],
            idleTimeout: 10,
            requestTimeout: 30,
            maximumBytes: maximumBytes,
            maximumRedirects: maximumRedirects
        )
    }

    @Test func sendsOneRequestAndReadsTheWholeAnswer() async throws {
        let heads = Locked<[String]>([])
        let server = try TestHTTPServer { head in
            heads.withLock { $0.append(head) }
            return .response(status: 201, headers: ["X-Answer": "yes"], body: Data("hello".utf8))
        }
        defer { server.stop() }
        let response = try await exchange(server.url).response()
        #expect(response.status == 201)
        #expect(response.headers.first(name: "x-answer") == "yes")
        #expect(response.body == Data("hello".utf8))
        let head = try #require(heads.value.first).lowercased()
        #expect(head.hasPrefix("get /api/features/test-key http/1.1\r\n"))
        #expect(head.contains("host: 127.0.0.1:\(server.port)\r\n"))
        #expect(head.contains("accept: application/json\r\n"))
        #expect(head.contains("accept-encoding: identity\r\n"))
        #expect(head.contains("connection: close\r\n"))
    }

    @Test func aThreadOfItsOwnWaitsForTheSameAnswer() throws {
        let server = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: Data("{}".utf8)) }
        defer { server.stop() }
        let response = try exchange(server.url).waitForResponse()
        #expect(response.status == 200)
        #expect(response.body == Data("{}".utf8))
    }

    @Test func aCapUnderAMebibyteIsNamedInBytes() async throws {
        let server = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: Data(count: 17)) }
        defer { server.stop() }
        let error = await #expect(throws: HTTPExchange.Failure.self) {
            _ = try await exchange(server.url, maximumBytes: 16).response()
        }
        #expect(error?.description == "the answer is larger than 16 bytes")
        // Exactly the cap is taken.
        #expect(try await exchange(server.url, maximumBytes: 17).response().body.count == 17)
    }

    @Test func redirectsPastTheLimitAreRefusedAfterTheLimit() async throws {
        let served = Counter()
        let server = try TestHTTPServer { _ in
            _ = served.next()
            return .response(status: 302, headers: ["Location": "/again"], body: Data())
        }
        defer { server.stop() }
        let error = await #expect(throws: HTTPExchange.Failure.self) {
            _ = try await exchange(server.url, maximumRedirects: 2).response()
        }
        #expect(error?.description == "more than 2 redirects")
        // The first request and two redirects, not one more.
        #expect(served.value == 3)
    }

    @Test func aPortNobodyListensOnCannotBeReached() async throws {
        // A port held by a socket that never listens: a stopped server's port
        // could be given to another test's server meanwhile, and was.
        let port = try RefusingPort()
        let error = await #expect(throws: HTTPExchange.Failure.self) {
            _ = try await exchange(port.url).response()
        }
        withExtendedLifetime(port) {}
        #expect(error?.description.hasPrefix("cannot reach the server") == true, "\(String(describing: error))")
    }

    /// A connection never taken is told apart from an answer that never comes.
    @Test func aServerThatTakesNoConnectionIsSaidToHaveNotAccepted() async throws {
        let port = try FullBacklogPort()
        let exchange = HTTPExchange(.GET, port.url, idleTimeout: 1, requestTimeout: 30, maximumBytes: 1 << 20)
        let error = await #expect(throws: HTTPExchange.Failure.self) { _ = try await exchange.response() }
        withExtendedLifetime(port) {}
        #expect(error?.description == "the server did not accept the connection in time")
    }

    @Test func anAddressThatIsNotHTTPIsRefusedBeforeConnecting() async throws {
        let error = await #expect(throws: HTTPExchange.Failure.self) {
            _ = try await exchange(URL(string: "ftp://127.0.0.1/payload")!).response()
        }
        #expect(error?.description == "the address is not http or https: ftp://127.0.0.1/payload")
    }

    @Test func cancellingTheTaskEndsTheExchange() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        let task = Task { try await exchange(server.url).response() }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test func anyTimeoutIsOneSwiftNIOCanCount() async throws {
        let server = try TestHTTPServer { _ in .response(status: 200, headers: [:], body: Data("{}".utf8)) }
        defer { server.stop() }
        for timeout in [TimeInterval.infinity, .greatestFiniteMagnitude, 1e300, 1e12] {
            let exchange = HTTPExchange(
                .GET,
                server.url,
                idleTimeout: timeout,
                requestTimeout: timeout,
                maximumBytes: 1024
            )
            #expect(try await exchange.response().status == 200, "\(timeout)")
        }
    }
}
