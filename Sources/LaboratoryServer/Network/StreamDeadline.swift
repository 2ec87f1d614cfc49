import Hummingbird
import NIOCore

extension ResponseBodyWriter {
    /// Writes `buffer`, resetting `channel`'s connection (``ConnectionReset``)
    /// if the write has not gone out within `deadline`: a client that stopped
    /// reading holds at most the one event being written, and its connection
    /// is given back.
    mutating func write(_ buffer: ByteBuffer, closing channel: any Channel, after deadline: Duration) async throws {
        let watchdog = channel.eventLoop.scheduleTask(in: TimeAmount(deadline)) {
            ConnectionReset.reset(channel)
        }
        defer { watchdog.cancel() }
        try await write(buffer)
    }
}
