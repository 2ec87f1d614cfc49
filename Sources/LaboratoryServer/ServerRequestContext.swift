import Hummingbird
import NIOCore

/// A request's context with the client's address, for the server's status
/// line (the last client seen), `--verbose` logs and per-client limits, and
/// its connection, which a stream closes when the client stops reading.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// `127.0.0.1:52114`, or `nil`.
    var client: String? {
        guard let remoteAddress, let ip = remoteAddress.ipAddress else { return nil }
        return remoteAddress.port.map { "\(ip):\($0)" } ?? ip
    }

    /// The client's address without its port: one phone, whichever connection it uses.
    var clientAddress: String { remoteAddress?.ipAddress ?? "-" }
}
