import Foundation
import GrowthBook

/// Reads a server-sent event stream and hands over each event: what an app
/// or tool that follows a stream other than GrowthBook's own needs (the
/// steering API's change stream), with the same brakes (backpressure, a
/// bound on line length, redirects only within a scheme).
package enum EventStreamReader {
    /// Reads `url` until the stream ends, `onEvent` throws or the task is cancelled.
    package static func read(
        _ url: URL,
        headers: [(String, String)] = [],
        onEvent: (ServerSentEvent) throws -> Void
    ) async throws {
        var parser = ServerSentEventParser()
        try await EventStreamConnection.read(url, headers: headers) { buffer in
            let events = try buffer.withUnsafeReadableBytes { raw in try parser.feed(raw) }
            for event in events { try onEvent(event) }
        }
    }
}
