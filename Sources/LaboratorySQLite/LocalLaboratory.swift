import Foundation
import Laboratory

/// The usual wiring of an app: local catalogs inside a debug source, over a
/// state file shared with `lab`, behind one assignments manager.
///
/// ```swift
/// let catalog = try CatalogDecoder().decode(contentsOf: path)
/// let lab = try LocalLaboratory(catalogs: [(path, catalog)], statePath: statePath)
/// try lab.manager.refresh()
/// ```
public struct LocalLaboratory: Sendable {
    public let store: SQLiteStateStore
    public let device: Device
    public let locals: [LocalSource]
    /// The catalog file each of ``locals`` is read from, in the same order.
    public let catalogPaths: [String]
    /// Wraps the local sources so QA can force variants (from `lab console` too).
    public let debug: DebugSource
    public let manager: AssignmentsManager

    /// Opens the state file and builds the sources; each catalog is read
    /// again from its path on ``AssignmentsManager/update()``.
    ///
    /// - Parameter userID: the logged-in user, for user-level experiments
    ///   (change it later with ``LocalSource/setUserID(_:)`` on each of ``locals``).
    /// - Parameter remotes: builds remote sources (GrowthBook) over the same state and device.
    public init(
        catalogs: [(path: String, catalog: Catalog)],
        statePath: String,
        userID: String? = nil,
        random: any RandomSource = SystemRandomSource(),
        clock: any WallClock = SystemClock(),
        remotes: (SQLiteStateStore, Device) -> [any ExperimentSource] = { _, _ in [] }
    ) throws {
        store = try SQLiteStateStore(path: statePath)
        device = try store.device(candidate: Device(id: UUID().uuidString.lowercased(), token: .draw(using: random)))
        let (store, device) = (self.store, self.device)
        catalogPaths = catalogs.map(\.path)
        locals = catalogs.map { path, catalog in
            LocalSource(
                catalog: catalog,
                store: store,
                device: device,
                random: random,
                clock: clock,
                fetcher: FileFetcher(path: path),
                file: path,
                userID: userID
            )
        }
        debug = DebugSource(sources: locals + remotes(store, device), store: store)
        manager = AssignmentsManager(sources: [debug], store: store, events: store, device: device, clock: clock)
    }

    /// The default state file of an app: `$XDG_STATE_HOME/laboratory/<app>.sqlite`,
    /// else under `~/.local/state`.
    public static func defaultStatePath(app: String = "default") -> String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return base + "/laboratory/\(app).sqlite"
    }
}
