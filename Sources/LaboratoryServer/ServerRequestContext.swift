import Hummingbird
import NIOCore

/// A request's context with the client's address, for the server's status
/// line (the last client seen) and `--verbose` logs.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// `127.0.0.1:52114`, or `nil`.
    var client: String? {
        guard let remoteAddress, let ip = remoteAddress.ipAddress else { return nil }
        return remoteAddress.port.map { "\(ip):\($0)" } ?? ip
    }
}
