import Foundation
import Synchronization

/// How a console connected to `lab serve` stands with it.
package enum ConnectionState: Sendable, Equatable {
    /// Connecting for the first time.
    case connecting
    /// The change stream is open: changes show as they happen.
    case live
    /// The connection was lost; the console shows the last good data and
    /// tries again by itself at `retryAt`.
    case lost(reason: String, retryAt: Date)

    package var isLost: Bool {
        if case .lost = self { true } else { false }
    }
}

/// What the follower of the steering API's change stream tells the console:
/// the connection's state, and a number that moves with every change, so
/// ``RemoteConsoleEnvironment/hasChanged()`` costs no request.
package final class ChangeMonitor: Sendable {
    private struct Seen {
        var state = ConnectionState.connecting
        var generation = 0
    }

    private let seen = Mutex(Seen())

    package init() {}

    package var state: ConnectionState { seen.withLock { $0.state } }
    /// Moves with every change and every change of state.
    package var generation: Int { seen.withLock { $0.generation } }

    /// The stream opened (or opened again).
    package func connected() { update { $0.state = .live } }

    /// Something changed on the server: a force, an update, new events.
    package func changed() { update { _ in } }

    /// The stream ended or could not open; the follower tries again at `retryAt`.
    package func lost(_ reason: String, retryAt: Date) { update { $0.state = .lost(reason: reason, retryAt: retryAt) } }

    private func update(_ change: (inout Seen) -> Void) {
        seen.withLock {
            change(&$0)
            $0.generation += 1
        }
    }
}
