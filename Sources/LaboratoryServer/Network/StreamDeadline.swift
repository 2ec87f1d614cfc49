import Hummingbird
import NIOCore

extension ResponseBodyWriter {
    /// Writes `buffer`, closing `channel` if the write has not gone out
    /// within `deadline`: a client that stopped reading holds at most the
    /// one event being written, and its connection is given back.
    mutating func write(_ buffer: ByteBuffer, closing channel: any Channel, after deadline: Duration) async throws {
        let nanoseconds = deadline.components.seconds * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000
        let watchdog = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            channel.close(promise: nil)
        }
        defer { watchdog.cancel() }
        try await write(buffer)
    }
}
