import HTTPTypes
import Laboratory

/// Who may steer a `lab serve`, and as whom: the one check every steering
/// endpoint makes before it does anything.
///
/// - A steering token (`Authorization: Bearer …` or `X-API-Key`) steers as its tester.
/// - An SDK client key is refused with 403: apps read, testers steer.
/// - Without a token, only a server bound to loopback with no tokens
///   configured lets a request steer (one person on one machine, as before).
/// - A request from a web page of a foreign origin is refused with 403,
///   token or not, so a page a tester visits cannot steer through their browser.
package struct SteeringGate: Sendable {
    package var tokens: SteeringTokens?
    package var clientKeys: Set<String>
    /// Whether the server listens on loopback only.
    package var loopbackOnly: Bool
    package var access: AccessPolicy

    package init(tokens: SteeringTokens?, clientKeys: Set<String>, loopbackOnly: Bool, access: AccessPolicy) {
        self.tokens = tokens
        self.clientKeys = clientKeys
        self.loopbackOnly = loopbackOnly
        self.access = access
    }

    /// What the gate decided.
    package enum Decision: Equatable, Sendable {
        /// Steer, recorded as this tester (`nil`: the loopback server's one person).
        case allowed(tester: String?)
        case refused(HTTPResponse.Status, String)
    }

    /// Decides for a request with these headers, sent to `authority` (its `Host`).
    package func decide(_ headers: HTTPFields, authority: String?) -> Decision {
        if let origin = headers[.origin], !access.allowsWrite(origin: origin, host: authority) {
            return .refused(.forbidden, "a web page of origin \(origin) may not steer (--allow-origin lets one)")
        }
        guard let given = RequestCredential.of(headers) else {
            if tokens == nil && loopbackOnly { return .allowed(tester: nil) }
            return .refused(
                .unauthorized,
                tokens == nil
                    ? "steering a server others can reach needs a token: start lab serve with --tokens FILE"
                    : "send your steering token as Authorization: Bearer <token> or X-API-Key"
            )
        }
        if let tester = tokens?.tester(for: given) { return .allowed(tester: tester) }
        if clientKeys.contains(given) {
            return .refused(.forbidden, "a client key reads; steering needs a tester's token")
        }
        return .refused(.unauthorized, "unknown steering token")
    }
}
