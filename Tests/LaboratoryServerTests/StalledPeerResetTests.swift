import NIOCore
import NIOEmbedded
import Testing

@testable import LaboratoryServer

/// Which closes ``StalledPeerReset`` turns into resets: only those of a
/// connection whose kernel holds bytes it has sent none of for the limit.
@Suite struct StalledPeerResetTests {
    typealias SendState = StalledPeerReset.SendState

    @Test func bytesTheKernelHasNotSentForTheLimitMakeAStall() {
        #expect(SendState(unsentBytes: 1, millisecondsSinceLastSend: 10_000).isStalled(for: .seconds(10)))
        #expect(SendState(unsentBytes: 2 << 20, millisecondsSinceLastSend: 60_000).isStalled(for: .seconds(10)))
    }

    @Test func aReaderTakingBytesLatelyOrOwedNothingIsNotStalled() {
        // Slow but reading: the kernel sent it something within the limit.
        #expect(!SendState(unsentBytes: 1 << 20, millisecondsSinceLastSend: 9_999).isStalled(for: .seconds(10)))
        // Took its answer whole: nothing waits for it, however long ago the last send.
        #expect(!SendState(unsentBytes: 0, millisecondsSinceLastSend: 600_000).isStalled(for: .seconds(10)))
    }

    @Test func aLimitBelowASecondCountsItsMilliseconds() {
        #expect(SendState(unsentBytes: 1, millisecondsSinceLastSend: 200).isStalled(for: .milliseconds(200)))
        #expect(!SendState(unsentBytes: 1, millisecondsSinceLastSend: 199).isStalled(for: .milliseconds(200)))
    }

    /// A channel with no socket (no `SocketOptionProvider`) is closed as asked.
    @Test func aChannelWithoutASocketClosesPlainly() throws {
        let channel = EmbeddedChannel(handler: StalledPeerReset(limit: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        #expect(channel.isActive)
        try channel.close().wait()
        #expect(!channel.isActive)
    }
}
