import Foundation

/// Who may reach `lab serve`, beyond holding a key: which names a request's
/// `Host` may carry, and which web pages may write.
///
/// A page a tester visits runs in their browser on their network: without
/// these checks it could read every flag through a DNS name that resolves to
/// the server (rebinding) and post made-up exposures without a preflight.
package struct AccessPolicy: Sendable {
    /// Host names and addresses a request may name, lowercased, without port.
    package var hosts: Set<String>
    /// Origins (`scheme://host[:port]`) whose pages may write, lowercased.
    package var origins: Set<String>

    /// - Parameters:
    ///   - listening: the address the server listens on.
    ///   - interfaces: this machine's addresses, which a wildcard listen answers on.
    ///   - hostName: this machine's name, which a LAN's DNS may give it.
    ///   - extraHosts: names a proxy or the LAN's DNS gives the server (`--allow-host`).
    ///   - origins: pages that may write besides the server's own (`--allow-origin`).
    package init(
        listening: String,
        interfaces: [String] = [],
        hostName: String? = nil,
        extraHosts: [String] = [],
        origins: [String] = []
    ) {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "::1"]
        let listening = Self.bare(listening)
        if Self.wildcards.contains(listening) {
            hosts.formUnion(interfaces.map(Self.bare))
            if let hostName, !hostName.isEmpty { hosts.insert(hostName.lowercased()) }
        } else {
            hosts.insert(listening)
        }
        hosts.formUnion(extraHosts.map(Self.bare))
        self.hosts = hosts
        self.origins = Set(origins.map { Self.trimmedOrigin($0) })
    }

    private static let wildcards: Set<String> = ["0.0.0.0", "::", ""]

    /// Whether a request's `Host` header names this server. HTTP/1.1 requires
    /// the header; a request without one is refused as well.
    package func allows(host header: String?) -> Bool {
        guard let header, let name = Self.hostName(of: header) else { return false }
        return hosts.contains(name)
    }

    /// Whether a page from `origin` may write to a server reached as `host`:
    /// no `Origin` (a native SDK, curl) may, the server's own pages may, and
    /// so may the configured origins.
    package func allowsWrite(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let trimmed = Self.trimmedOrigin(origin)
        if origins.contains(trimmed) { return true }
        guard let host else { return false }
        return trimmed == "http://" + host.lowercased() || trimmed == "https://" + host.lowercased()
    }

    /// `Example.test:3100` → `example.test`; `[::1]:3100` → `::1`; `nil` for a malformed header.
    static func hostName(of header: String) -> String? {
        let value = header.trimmingCharacters(in: .whitespaces).lowercased()
        guard !value.isEmpty, !value.contains(where: { $0 == "/" || $0 == "@" || $0 == " " }) else { return nil }
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return String(value[value.index(after: value.startIndex)..<close])
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isNumber) { return nil }
        return String(parts[0])
    }

    private static func bare(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    private static func trimmedOrigin(_ origin: String) -> String {
        var origin = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }
}
