import GrowthBookNetwork
import Testing

/// The wait between a stream's reconnections: the GrowthBook streamer's and
/// the steering change stream's followers'.
@Suite struct ReconnectBackoffTests {
    @Test func reconnectingWaitsLongerEachTimeUpToACap() {
        var backoff = ReconnectBackoff(first: .milliseconds(500), cap: .seconds(8))
        let waits = (0..<7).map { _ in backoff.wait() }
        #expect(
            waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)]
        )
        backoff.reset()
        #expect(backoff.wait() == .milliseconds(500))
    }
}
