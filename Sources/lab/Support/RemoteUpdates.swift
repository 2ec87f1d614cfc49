import Foundation
import Laboratory
import LaboratoryRemote

/// Keeps a `--growthbook` URL's payload current in the background, for the
/// console and `lab serve`: a fetch at once and then every `interval`
/// seconds, and server-sent events as soon as the server offers them. The
/// last good payload is served meanwhile; nothing here blocks the caller.
enum RemoteUpdates {
    /// Starts the updates when the session has a remote URL; cancel the task to stop them.
    static func start(_ session: LabSession, every interval: Int) -> Task<Void, Never>? {
        guard let remote = session.remote, remote.file == nil else { return nil }
        let source = session.debug.sources.compactMap { $0 as? GrowthBookSource }.first
        let manager = session.manager
        return Task.detached {
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
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
