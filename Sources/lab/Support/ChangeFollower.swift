import Foundation
import GrowthBook
import GrowthBookNetwork
import LaboratoryConsole

/// Follows a `lab serve`'s steering change stream for as long as the task
/// runs: a lost stream is reported and opened again by itself, waiting
/// longer each time up to a cap. The connected console and `lab events
/// --connect --follow` both follow it this way.
enum ChangeFollower {
    /// Hands each event to `event` (`hello` first on every connection), and
    /// each loss, with when the next attempt is, to `lost`. An error `event`
    /// throws ends the following and is thrown here; a connection's is not.
    static func follow(
        _ connection: HTTPSteeringConnection,
        event: (ServerSentEvent) throws -> Void,
        lost: (_ reason: String, _ retryAt: Date) -> Void
    ) async throws {
        var backoff = ReconnectBackoff()
        let (url, headers) = connection.changes
        while !Task.isCancelled {
            var reason = "the server closed the stream"
            do {
                try await EventStreamReader.read(url, headers: headers) { received in
                    if received.type == "hello" { backoff.reset() }
                    do {
                        try event(received)
                    } catch {
                        throw HandlerFailed(error: error)
                    }
                }
            } catch let failed as HandlerFailed {
                throw failed.error
            } catch is CancellationError {
                return
            } catch {
                reason = String(describing: error)
            }
            if Task.isCancelled { return }
            let wait = backoff.wait()
            lost(reason, Date().addingTimeInterval(wait / .seconds(1)))
            try? await Task.sleep(for: wait)
        }
    }

    /// Follows for a connected console: its monitor hears of every change and loss.
    static func follow(_ connection: HTTPSteeringConnection, monitor: ChangeMonitor) async {
        try? await follow(
            connection,
            event: { $0.type == "hello" ? monitor.connected() : monitor.changed() },
            lost: monitor.lost
        )
    }

    /// What the caller's handler threw, told apart from the connection's errors.
    private struct HandlerFailed: Error {
        var error: any Error
    }
}
