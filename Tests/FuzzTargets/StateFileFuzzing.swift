import Foundation
import Laboratory
import LaboratorySQLite

extension FuzzTargets {
    /// A state file: the bytes written as a file, opened as every command
    /// opens one, and read by every read path, then written to as an app
    /// writes. Another process, a script or a damaged disk can leave anything
    /// in that file: it may be refused, never trap or hang.
    public static func stateFile(_ data: Data) {
        let path = NSTemporaryDirectory() + "lab-fuzz-state-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) } }
        guard FileManager.default.createFile(atPath: path, contents: data) else { return }
        readEverything(path)
    }

    /// In a function of its own, so the store is closed before its files are removed.
    private static func readEverything(_ path: String) {
        guard let store = try? SQLiteStateStore(path: path) else { return }
        _ = try? store.revision()
        let forced = (try? store.forcedVariants()) ?? []
        _ = try? store.storedAttributes()
        _ = try? store.appWirings()
        for source in Set(forced.map(\.source) + ["Local", "GrowthBook"]) {
            _ = try? store.draws(source: source)
            _ = try? store.stabilization(source: source)
            _ = try? store.stabilizedPayload(source: source)
            _ = try? store.payload(source: source)
            _ = try? store.stickyBuckets(source: source)
        }
        _ = try? store.latestEvents(matching: EventQuery(), limit: 100)
        _ = try? store.events(matching: EventQuery(reasons: [.displayed]), after: nil, limit: 100)
        _ = try? store.exposureCounts()
        // An app's writes: the device, an exposure, the active set.
        guard let device = try? store.device(candidate: Device(id: "fuzz", token: ActiveExperimentsToken(0.5))) else {
            return
        }
        let event = Event(
            time: Date(timeIntervalSince1970: 0),
            device: device.id,
            source: "Local",
            experiment: "E",
            variant: "V",
            key: "k",
            value: .string("v"),
            reason: .displayed
        )
        _ = try? store.recordOnce(event)
        _ = try? store.swapActiveAssignments([])
    }
}
