import Foundation
import GrowthBookNetwork
import Laboratory
import LaboratoryConsole
import Synchronization

/// Keeps a `--growthbook` URL's payload current in the background, for the
/// console and `lab serve`: a fetch at once and then every `interval`
/// seconds, and server-sent events as soon as the server offers them. The
/// last good payload is served meanwhile; nothing here blocks the caller.
final class RemoteUpdates: Sendable {
    private let session: LabSession
    private let interval: Int
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Which source fetches, and when its next timed fetch happens, once the first has run.
    private let nextFetch = Mutex<(source: String, at: Date)?>(nil)

    init(_ session: LabSession, every interval: Int) {
        self.session = session
        self.interval = interval
    }

    /// When each fetching source fetches next, as Settings shows it.
    var schedules: [String: FetchSchedule] {
        guard let next = nextFetch.withLock({ $0 }) else { return [:] }
        return [next.source: FetchSchedule(next: next.at, interval: interval)]
    }

    /// Starts the updates when the session has a remote URL.
    func start() {
        guard let remote = session.remote, remote.file == nil else { return }
        let source = session.growthBook
        let manager = session.manager
        let interval = interval
        task.withLock {
            $0 = Task.detached { [self] in
                var streamer: Task<Void, Never>?
                defer { streamer?.cancel() }
                while !Task.isCancelled {
                    await manager.update()
                    // Once the server offers server-sent events, stream them too.
                    if streamer == nil, let url = remote.streamURL, remote.streaming?.isEnabled == true, let source {
                        source.setTransport("streaming")
                        streamer = Task.detached {
                            await GrowthBookStreamer(url: url).run(
                                payload: { data in
                                    try? source.accept(data)
                                    _ = try? manager.refresh()
                                },
                                refetch: { await manager.update() }
                            )
                        }
                    }
                    if let name = source?.name {
                        self.nextFetch.withLock { $0 = (name, Date().addingTimeInterval(TimeInterval(interval))) }
                    }
                    try? await Task.sleep(for: .seconds(interval))
                }
            }
        }
    }

    func stop() { task.withLock { $0?.cancel() } }
}
