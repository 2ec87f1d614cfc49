import Foundation
import Synchronization

/// How many exposures each client may post: a token bucket per client that
/// holds `burst` tokens and refills at `rate` a second, one token an event.
///
/// Time is passed in, so tests advance it by hand. The table of clients is
/// bounded: past `maximumClients`, the buckets that are full again (their
/// clients have been quiet long enough to be forgotten) are dropped first.
package final class EventRateLimiter: Sendable {
    package let rate: Double
    package let burst: Double
    private let maximumClients: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    package init(rate: Double, burst: Double, maximumClients: Int = 10_000) {
        self.rate = max(rate, 0.001)
        self.burst = max(burst, 1)
        self.maximumClients = maximumClients
    }

    /// Takes `count` tokens from `client`'s bucket at `now` (seconds).
    /// - Returns: `nil` when taken, else the seconds until they would be there
    ///   (a request larger than the burst is never taken: `.infinity`).
    package func take(_ count: Int, for client: String, now: Double) -> Double? {
        let cost = Double(max(count, 1))
        guard cost <= burst else { return .infinity }
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            if bucket.tokens >= cost {
                bucket.tokens -= cost
                if buckets[client] == nil, buckets.count >= maximumClients { forgetQuiet(&buckets, now: now) }
                buckets[client] = bucket
                return nil
            }
            buckets[client] = bucket
            return (cost - bucket.tokens) / rate
        }
    }

    /// Clients being tracked now.
    package var clientCount: Int { buckets.withLock { $0.count } }

    private func forgetQuiet(_ buckets: inout [String: Bucket], now: Double) {
        let refill = burst / rate
        buckets = buckets.filter { now - $0.value.updated < refill }
        // Every client is busy: forget the half that posted least recently.
        if buckets.count >= maximumClients {
            let kept = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(maximumClients / 2)
            buckets = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }
}
