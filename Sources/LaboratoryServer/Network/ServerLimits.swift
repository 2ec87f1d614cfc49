import NIOCore

/// What one peer may cost `lab serve`: time, connections, memory and writes.
///
/// A phone on a LAN, a web page a tester visits or a misbehaving script may
/// each cost bounded time and memory, never another client's service. The
/// defaults suit a staging box; tests shrink them to see each bound act.
package struct ServerLimits: Sendable {
    /// How long a connection may sit without a request, or with a request
    /// whose head or body has stopped arriving, before it is closed. Long
    /// enough that a client's pool seldom reuses a connection the server has
    /// just closed (a POST on one fails: 15 s did, in a test under load);
    /// crowds of idle peers are the shedding's to bound, not this timeout's.
    package var idleTimeout: Duration = .seconds(60)
    /// How long a request's body may take to arrive after its head, however
    /// steadily it trickles in.
    package var bodyDeadline: Duration = .seconds(30)
    /// Connections open at once; past it new ones wait in the listen backlog.
    package var maximumConnections: Int = ServerLimits.connectionsBelowDescriptorLimit()
    /// Above this many connections, each new one closes the connection that
    /// has been idle the longest, so a crowd of idle peers never locks out a
    /// client that comes to ask something.
    package var idleSheddingThreshold: Int? = nil
    /// How long a stream may take to accept one write before it is closed:
    /// a reader that stopped reading holds at most one payload until then.
    package var streamWriteDeadline: Duration = .seconds(10)
    /// How long the kernel may have held bytes for a peer without sending
    /// it any before closing the peer's connection resets it, dropping them
    /// (``StalledPeerReset``).
    package var stalledPeerLimit: Duration = .seconds(10)
    /// The largest request body.
    package var maximumBodyBytes: Int = 1 << 20
    /// Exposures one client may post per second, on average.
    package var eventsPerSecond: Double = 50
    /// Exposures one client may post at once after a quiet spell.
    package var eventBurst: Double = 500
    /// Writes waiting for the state file at once; past it a write answers 503.
    package var pendingWrites: Int = 64

    package init() {}

    /// The connections at which new ones start to close idle ones.
    var sheddingThreshold: Int { idleSheddingThreshold ?? max(1, maximumConnections - maximumConnections / 8) }

    /// Room for every connection the descriptor limit allows, less what the
    /// state file, the catalogs and the listening socket need.
    static func connectionsBelowDescriptorLimit() -> Int {
        let limit = DescriptorLimit.raised()
        return max(16, min(limit - 128, 16_384))
    }
}
