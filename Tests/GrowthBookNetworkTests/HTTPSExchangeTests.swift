import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Testing

@testable import GrowthBookNetwork

/// `https` through the client: a certificate it trusts gets the answer, one
/// it does not is refused with a reason, before any request is sent.
@Suite struct HTTPSExchangeTests {
    /// A self-signed certificate for `localhost` and 127.0.0.1, valid for a
    /// hundred years, made for these tests alone
    /// (`openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1`).
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBnDCCAUGgAwIBAgIUYNJfRQDe3TxcQzG5lIuCkIImc08wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNTA0MjYxOFoYDzIxMjYxMTAx
        MDQyNjE4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAASCPZ36AACL7upYLVWQ7ngirFPanElQwpMui50S5CWedSliE/3hUISE
        a2W9fjFEJfG1nc1sPEf7dQ0ic1Hyx0S0o28wbTAdBgNVHQ4EFgQUmu+lDVX2Zdep
        ghlP3kn44H5FqyYwHwYDVR0jBBgwFoAUmu+lDVX2ZdepghlP3kn44H5FqyYwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
        zj0EAwIDSQAwRgIhAI8Nule1K+A27pULd/T8g86P1DfixU+GhqoBpBq0AnFnAiEA
        vf5v0nomUusJpvzwRUSj4ZIvEZ684UZRNI/xw6qpI2A=
        -----END CERTIFICATE-----
        """
    static let key = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg/xAr1mLkPPy1b4DB
        86H7sL90onHnwgZZURA0rBzSWhGhRANCAASCPZ36AACL7upYLVWQ7ngirFPanElQ
        wpMui50S5CWedSliE/3hUISEa2W9fjFEJfG1nc1sPEf7dQ0ic1Hyx0S0
        -----END PRIVATE KEY-----
        """

    /// Answers every request `200` with "secret" over TLS on 127.0.0.1; counts the requests.
    final class Server: Sendable {
        let channel: any Channel
        let requests = Locked(0)
        var url: URL { URL(string: "https://127.0.0.1:\(channel.localAddress!.port!)/api/features/key")! }

        init() async throws {
            let context = try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: [
                        .certificate(try NIOSSLCertificate(bytes: Array(Self.certificateBytes), format: .pem))
                    ],
                    privateKey: .privateKey(
                        try NIOSSLPrivateKey(bytes: Array(HTTPSExchangeTests.key.utf8), format: .pem)
                    )
                )
            )
            let requests = requests
            channel = try await ServerBootstrap(group: HTTPEndpoint.group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Answer(requests: requests))
                    }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
        }

        static var certificateBytes: Data { Data(HTTPSExchangeTests.certificate.utf8) }

        func stop() async throws { try await channel.close() }
    }

    final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let requests: Locked<Int>
        init(requests: Locked<Int>) { self.requests = requests }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            requests.withLock { $0 += 1 }
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(name: "Content-Length", value: "6")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "secret")))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func exchange(_ url: URL, trusting: Bool) throws -> HTTPExchange {
        var tls = TLSConfiguration.makeClientConfiguration()
        if trusting {
            tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(Server.certificateBytes), format: .pem)])
        }
        return HTTPExchange(.GET, url, idleTimeout: 10, requestTimeout: 30, maximumBytes: 1024, tls: tls)
    }

    @Test func aTrustedCertificateGetsTheAnswer() async throws {
        let server = try await Server()
        let response = try await exchange(server.url, trusting: true).response()
        try await server.stop()
        #expect(response.status == 200)
        #expect(response.body == Data("secret".utf8))
    }

    @Test func anUntrustedCertificateIsRefusedBeforeTheRequest() async throws {
        let server = try await Server()
        let error = await #expect(throws: HTTPExchange.Failure.self) {
            _ = try await exchange(server.url, trusting: false).response()
        }
        try await server.stop()
        #expect(
            error?.description.hasPrefix("the TLS connection failed (certificate or protocol)") == true,
            "\(String(describing: error))"
        )
        #expect(server.requests.value == 0)
    }
}
