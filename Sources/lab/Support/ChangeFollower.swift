import Foundation
import GrowthBookNetwork
import LaboratoryConsole

/// Follows the steering API's change stream for a connected console: each
/// event tells the ``ChangeMonitor`` something changed; a lost stream is
/// reported and opened again by itself, waiting longer each time up to a cap.
enum ChangeFollower {
    static func follow(_ connection: HTTPSteeringConnection, monitor: ChangeMonitor) async {
        var backoff = ReconnectBackoff()
        let (url, headers) = connection.changes
        while !Task.isCancelled {
            var reason = "the server closed the stream"
            do {
                try await EventStreamReader.read(url, headers: headers) { event in
                    if event.type == "hello" {
                        backoff.reset()
                        monitor.connected()
                    } else {
                        monitor.changed()
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                reason = String(describing: error)
            }
            if Task.isCancelled { return }
            let wait = backoff.wait()
            monitor.lost(reason, retryAt: Date().addingTimeInterval(wait / .seconds(1)))
            try? await Task.sleep(for: wait)
        }
    }
}
