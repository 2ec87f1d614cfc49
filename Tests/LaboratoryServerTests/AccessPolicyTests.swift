import Testing

@testable import LaboratoryServer

/// Which `Host` headers name the server and which pages may write.
@Suite struct AccessPolicyTests {
    @Test func aLoopbackServerAnswersToLoopbackNamesOnly() {
        let policy = AccessPolicy(listening: "127.0.0.1", interfaces: ["192.168.1.5"], hostName: "qa-box")
        for host in ["127.0.0.1", "127.0.0.1:3100", "localhost:3100", "LOCALHOST", "[::1]:3100"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        // A name a page's DNS points at the server (rebinding), and this machine's
        // LAN address and name, which a loopback server is not reached by.
        for host in ["evil.example", "evil.example:3100", "192.168.1.5:3100", "qa-box", "", "a b", "x@127.0.0.1"] {
            #expect(!policy.allows(host: host), "\(host)")
        }
        #expect(!policy.allows(host: nil))
        #expect(!policy.allows(host: "127.0.0.1:port"))
    }

    @Test func aServerOnEveryInterfaceAnswersToEachAddressAndTheMachinesName() {
        let policy = AccessPolicy(
            listening: "0.0.0.0",
            interfaces: ["192.168.1.5", "fe80::1"],
            hostName: "QA-Box",
            extraHosts: ["staging.example"]
        )
        for host in ["192.168.1.5:3100", "[fe80::1]:3100", "qa-box:3100", "staging.example", "localhost"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        #expect(!policy.allows(host: "10.0.0.9"))
        #expect(!policy.allows(host: "evil.example"))
    }

    @Test func pagesWriteOnlyFromTheServersOwnOriginOrAnAllowedOne() {
        let policy = AccessPolicy(listening: "127.0.0.1", origins: ["http://qa.example:8080/"])
        #expect(policy.allowsWrite(origin: nil, host: "127.0.0.1:3100"))  // an SDK, curl
        #expect(policy.allowsWrite(origin: "http://127.0.0.1:3100", host: "127.0.0.1:3100"))  // the demo page
        #expect(policy.allowsWrite(origin: "http://QA.example:8080", host: "127.0.0.1:3100"))
        #expect(!policy.allowsWrite(origin: "http://evil.example", host: "127.0.0.1:3100"))
        #expect(!policy.allowsWrite(origin: "http://127.0.0.1:9999", host: "127.0.0.1:3100"))
        #expect(!policy.allowsWrite(origin: "null", host: "127.0.0.1:3100"))  // a sandboxed frame, a file
    }
}

/// The per-client token buckets, with time advanced by hand.
@Suite struct EventRateLimiterTests {
    @Test func aBurstPassesThenTheRateHoldsAndQuietRefills() {
        let limiter = EventRateLimiter(rate: 10, burst: 20)
        #expect(limiter.take(20, for: "a", now: 0) == nil)
        let wait = limiter.take(5, for: "a", now: 0)
        #expect(wait == 0.5)
        #expect(limiter.take(1, for: "b", now: 0) == nil)  // another client has its own bucket
        #expect(limiter.take(5, for: "a", now: 0.5) == nil)
        #expect(limiter.take(1, for: "a", now: 0.5) != nil)
        #expect(limiter.take(20, for: "a", now: 100) == nil)  // refilled, but never past the burst
        #expect(limiter.take(1, for: "a", now: 100) != nil)
        #expect(limiter.take(21, for: "c", now: 0) == .infinity)  // larger than any burst
    }

    @Test func theTableOfClientsStaysBounded() {
        let limiter = EventRateLimiter(rate: 1, burst: 5, maximumClients: 100)
        for index in 0..<10_000 { _ = limiter.take(1, for: "client \(index)", now: Double(index) * 0.001) }
        #expect(limiter.clientCount <= 100)
    }
}
