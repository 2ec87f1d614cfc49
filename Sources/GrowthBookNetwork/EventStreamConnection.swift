import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One `GET` of a server-sent event stream over HTTP/1.1 (TLS for
/// `https`), whose body is read from the socket only as fast as it is
/// consumed: the channel stops reading while a few parts wait, so a server
/// that sends faster than the app parses waits on TCP instead of filling
/// the app's memory. URLSession on Linux has no such brake: its delegate
/// queue takes whatever the socket gives (measured: 250 MB more a second).
enum EventStreamConnection {
    /// One thread of its own for every stream of the process: an app that
    /// also serves (`lab serve --growthbook`) keeps its server's event loops
    /// apart from what it reads from upstream.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Why a connection gave no stream.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `url`, follows up to five redirects that keep its scheme, and
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
                guard next.scheme?.lowercased() == url.scheme?.lowercased() else {
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
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host else {
            throw Failure(description: "the stream's address is not http or https: \(url)")
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let tls = try scheme == "https" ? NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let address = try? SocketAddress(ipAddress: bare, port: port)
        // A host name for SNI; an address takes none.
        let serverName = address == nil ? bare : nil
        let bootstrap = ClientBootstrap(group: Self.group).connectTimeout(.seconds(10))
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Stream> = { channel in
            channel.eventLoop.makeCompletedFuture {
                if let tls {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                    )
                }
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                // A few parts at most wait to be consumed; past them the channel stops reading.
                return try Stream(
                    wrappingChannelSynchronously: channel,
                    configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8))
                )
            }
        }
        // An address is connected to as it is: resolving it would wait for a
        // thread of Dispatch's pool, which a busy process may not have free.
        let channel =
            if let address {
                try await bootstrap.connect(to: address, channelInitializer: initializer)
            } else {
                try await bootstrap.connect(host: bare, port: port, channelInitializer: initializer)
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: Self.target(of: url))
            head.headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
            head.headers.add(name: "Accept", value: "text/event-stream")
            head.headers.add(name: "Cache-Control", value: "no-cache")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
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

    /// The path and query the request line asks for.
    private static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}
