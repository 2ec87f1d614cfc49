import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One `GET` of a server-sent event stream over HTTP/1.1 (TLS for
/// `https`), whose body is read from the socket only as fast as it is
/// consumed: the channel stops reading while a few parts wait, so a server
/// that sends faster than the app parses waits on TCP instead of filling
/// the app's memory. URLSession on Linux has no such brake: its delegate
/// queue takes whatever the socket gives (measured: 250 MB more a second).
enum EventStreamConnection {
    /// Why a connection gave no stream.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `url`, follows up to five redirects that keep its scheme (or go
    /// from `http` to `https`, as every request's do), and
    /// hands each chunk of the `200` answer's body to `body` until the
    /// stream ends, `body` throws or the task is cancelled.
    static func read(
        _ url: URL,
        headers: [(String, String)] = [],
        body: (ByteBuffer) throws -> Void
    ) async throws {
        var url = url
        for _ in 0..<6 {
            switch try await readOnce(url, headers: headers, body: body) {
            case .ended: return
            case .redirect(let next):
                guard
                    HTTPEndpoint.allowsRedirect(
                        from: url.scheme?.lowercased() ?? "",
                        to: next.scheme?.lowercased() ?? ""
                    )
                else {
                    throw Failure(
                        description:
                            "the stream redirected from \(url.scheme ?? "") to \(next.scheme ?? "another scheme"); refused"
                    )
                }
                url = next
            }
        }
        throw Failure(description: "the stream redirected more than five times")
    }

    private typealias Stream = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    private enum Outcome {
        case ended
        case redirect(URL)
    }

    private static func readOnce(
        _ url: URL,
        headers: [(String, String)],
        body: (ByteBuffer) throws -> Void
    ) async throws -> Outcome {
        let endpoint: HTTPEndpoint
        do {
            endpoint = try HTTPEndpoint(url)
        } catch is HTTPEndpoint.Unsupported {
            throw Failure(description: "the stream's address is not http or https: \(url)")
        }
        let bootstrap = ClientBootstrap(group: HTTPEndpoint.group).connectTimeout(.seconds(10))
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Stream> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try endpoint.addClientHandlers(to: channel)
                // A few parts at most wait to be consumed; past them the channel stops reading.
                return try Stream(
                    wrappingChannelSynchronously: channel,
                    configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8))
                )
            }
        }
        // An address is connected to as it is (see `HTTPEndpoint.connect(with:)`).
        let channel =
            if let address = endpoint.address {
                try await bootstrap.connect(to: address, channelInitializer: initializer)
            } else {
                try await bootstrap.connect(host: endpoint.host, port: endpoint.port, channelInitializer: initializer)
            }
        return try await channel.executeThenClose { inbound, outbound in
            let head = endpoint.head(
                .GET,
                headers: [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")] + headers
            )
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))
            for try await part in inbound {
                switch part {
                case .head(let response):
                    if (300..<400).contains(Int(response.status.code)),
                        let location = response.headers.first(name: "Location"),
                        let next = URL(string: location, relativeTo: url)?.absoluteURL
                    {
                        return .redirect(next)
                    }
                    guard response.status == .ok else {
                        throw Failure(description: "the stream answered \(response.status.code)")
                    }
                case .body(let buffer):
                    try body(buffer)
                case .end:
                    return .ended
                }
            }
            return .ended
        }
    }
}
