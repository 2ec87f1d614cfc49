import Hummingbird
import NIOCore

extension ResponseBodyWriter {
    /// Writes `buffer`, closing `channel` if the write has not gone out
    /// within `deadline`: a client that stopped reading holds at most the
    /// one event being written, and its connection is given back (reset, so
    /// the kernel drops the event too: ``StalledPeerReset``).
    mutating func write(_ buffer: ByteBuffer, closing channel: any Channel, after deadline: Duration) async throws {
        let watchdog = channel.eventLoop.scheduleTask(in: TimeAmount(deadline)) {
            channel.close(promise: nil)
        }
        defer { watchdog.cancel() }
        try await write(buffer)
    }
}
