import Hummingbird

/// Refuses a request whose `Host` does not name this server, before any
/// route sees it: a page that reaches the server through a DNS name of its
/// own (rebinding) gets nothing, not even a preflight.
struct HostCheck: RouterMiddleware {
    typealias Context = ServerRequestContext
    let access: AccessPolicy

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let host = request.head.authority
        guard access.allows(host: host) else {
            return LabServer.json(
                [
                    "error":
                        "this server does not answer to the host \"\(host ?? "")\"; start it with --allow-host to add one"
                ],
                status: .misdirectedRequest
            )
        }
        return try await next(request, context)
    }
}
