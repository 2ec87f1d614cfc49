import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Where an `http` or `https` URL connects, and what its request says:
/// the one place both of this module's HTTP clients (``HTTPExchange`` and
/// the event stream) read a URL.
struct HTTPEndpoint: Sendable {
    /// One thread of its own for every connection this process opens to a
    /// server: an app that also serves (`lab serve --growthbook`) keeps its
    /// server's event loops apart from what it reads from upstream.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Why a URL cannot be connected to.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    let url: URL
    /// The host without the brackets of an IPv6 address.
    let host: String
    let port: Int
    /// The host as an address, when it is one: connected to as it is.
    let address: SocketAddress?
    /// For `https`.
    let tls: NIOSSLContext?

    /// The system's trust roots, read once per process rather than once per connection.
    private static let systemTLS = Result { try NIOSSLContext(configuration: .makeClientConfiguration()) }

    /// The endpoint of `url`; `tls` replaces the system's trust (tests trust a certificate of their own).
    init(_ url: URL, tls configuration: TLSConfiguration? = nil) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else {
            throw Unsupported(description: "the address is not http or https: \(url.absoluteString)")
        }
        self.url = url
        self.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        port = url.port ?? (scheme == "https" ? 443 : 80)
        address = try? SocketAddress(ipAddress: self.host, port: port)
        if scheme == "https" {
            tls = try configuration.map { try NIOSSLContext(configuration: $0) } ?? Self.systemTLS.get()
        } else {
            tls = nil
        }
    }

    /// Whether a redirect may go from one scheme to another: the same
    /// scheme, or `http` to `https`. `file:` would otherwise be asked of
    /// the same host, and `https` to `http` gives a key away in clear.
    static func allowsRedirect(from: String, to: String) -> Bool {
        (from == to && ["http", "https"].contains(to)) || (from == "http" && to == "https")
    }

    /// Adds TLS (for `https`) and HTTP/1.1's client handlers to a new channel's pipeline.
    func addClientHandlers(to channel: any Channel) throws {
        if let tls {
            // A host name for SNI; an address takes none.
            try channel.pipeline.syncOperations.addHandler(
                try NIOSSLClientHandler(context: tls, serverHostname: address == nil ? host : nil)
            )
        }
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
    }

    /// Connects with `bootstrap`: an address as it is, since resolving it
    /// would wait for a thread of Dispatch's pool, which a busy process may
    /// not have free.
    func connect(with bootstrap: ClientBootstrap) -> EventLoopFuture<any Channel> {
        if let address { bootstrap.connect(to: address) } else { bootstrap.connect(host: host, port: port) }
    }

    /// A request's head: the path and query, `Host`, then `headers`.
    func head(_ method: HTTPMethod, headers: [(String, String)]) -> HTTPRequestHead {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: (path.isEmpty ? "/" : path) + query)
        head.headers.add(name: "Host", value: url.port.map { "\(url.host ?? host):\($0)" } ?? (url.host ?? host))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        return head
    }
}
