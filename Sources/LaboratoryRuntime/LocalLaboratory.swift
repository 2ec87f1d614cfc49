import Foundation
import GrowthBookNetwork
import Laboratory
import LaboratorySQLite

/// The usual wiring of an app: local catalogs (and remote sources), over a
/// state file shared with `lab`, behind one assignments manager; in debug
/// builds, inside a debug source so QA can force variants.
///
/// ```swift
/// let catalog = try CatalogDecoder().decode(contentsOf: path)
/// let lab = try LocalLaboratory(catalogs: [(path, catalog)], statePath: statePath)
/// try lab.manager.refresh()
/// ```
///
/// With a GrowthBook payload, the laboratory adds a GrowthBook source and
/// keeps it current (``updater``): a changed payload reaches
/// `AssignmentsManager/changes()` within the refresh interval, or at once
/// when the server streams.
///
/// ```swift
/// let lab = try LocalLaboratory(
///     catalogs: [],
///     statePath: statePath,
///     growthBook: GrowthBookConnection(apiHost: URL(string: "https://cdn.growthbook.io")!, clientKey: "sdk-abc")
/// )
/// ```
///
/// Forcing belongs to debug builds: a release build has no debug source, so
/// a process that can write the state file cannot change what it runs. Pass
/// `debugSource: true` to let QA force variants in a build of your choosing.
public struct LocalLaboratory: Sendable {
    /// The state file, opened once and shared by every part below.
    public let store: SQLiteStateStore
    /// This device's identity and active experiments token, as the state file keeps them.
    public let device: Device
    /// One local source per catalog, in the order the catalogs were given.
    public let locals: [LocalSource]
    /// The catalog file each of ``locals`` is read from, in the same order.
    public let catalogPaths: [String]
    /// The source over the GrowthBook payload, when the wiring has one.
    public let growthBook: GrowthBookSource?
    /// Keeps ``growthBook``'s payload current; started as the laboratory
    /// opens unless ``GrowthBookConnection/autoRefresh`` is off.
    public let updater: GrowthBookUpdater?
    /// The local sources, then the GrowthBook one, then the other remote ones:
    /// what the app's experiments come from.
    public let sources: [any ExperimentSource]
    /// Wraps ``sources`` so QA can force variants (from `lab console` too);
    /// `nil` when the wiring has no debug source, as in release builds.
    public let debug: DebugSource?
    /// The manager the app asks for values: every source, wrapped in the debug source when there is one.
    public let manager: AssignmentsManager
    /// Forces, unforces, resets and imports through ``debug``: `nil` with it.
    public let steering: Steering?

    /// Opens the state file and builds the sources; each catalog is read
    /// again from its path on `AssignmentsManager/update()`.
    ///
    /// - Parameters:
    ///   - catalogs: the catalogs, each with the path it is read again from.
    ///   - statePath: the state file, created with its folder when missing.
    ///   - userID: the logged-in user, for user-level experiments
    ///     (change it later with `LocalSource/setUserID(_:)` on each of ``locals``).
    ///   - debugSource: whether forced variants apply; by default in
    ///     debug builds only.
    ///   - app: the name under which the wiring is recorded in the
    ///     state file, so the console and `lab force` warn when forcing would
    ///     change nothing here; `nil` records nothing (tools such as `lab`).
    ///   - random: what draws the token and variants by weight.
    ///   - clock: the time draws and events are stamped with.
    ///   - connection: a GrowthBook payload to add as a source and keep current.
    ///   - remotes: builds other remote sources over the same state and device.
    public init(
        catalogs: [(path: String, catalog: Catalog)],
        statePath: String,
        userID: String? = nil,
        debugSource: Bool = LocalLaboratory.isDebugBuild,
        app: String? = ProcessInfo.processInfo.processName,
        random: any RandomSource = SystemRandomSource(),
        clock: any WallClock = SystemClock(),
        growthBook connection: GrowthBookConnection? = nil,
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
        let fetcher = connection.map { HTTPPayloadFetcher(url: $0.featuresURL) }
        if let connection, let fetcher {
            growthBook = GrowthBookSource(
                store: store,
                device: device,
                attributes: connection.attributes,
                fetcher: fetcher,
                decrypt: PayloadDecryption.decrypter(key: connection.decryptionKey),
                clock: clock
            )
        } else {
            growthBook = nil
        }
        sources = locals + (growthBook.map { [$0] } ?? []) + remotes(store, device)
        // The device's attributes decide which scoped forced variants it gets.
        var attributes = connection?.attributes ?? [:]
        if let userID, attributes["userId"] == nil { attributes["userId"] = userID }
        debug = debugSource ? DebugSource(sources: sources, store: store, attributes: attributes) : nil
        manager = AssignmentsManager(
            sources: debug.map { [$0] } ?? sources,
            store: store,
            events: store,
            device: device,
            clock: clock
        )
        steering = debug.map { [manager] in Steering(debug: $0, manager: manager, store: store, clock: clock) }
        if let app {
            try store.recordAppWiring(AppWiring(app: app, hasDebugSource: debugSource, process: .current))
        }
        if let connection, let fetcher, let source = growthBook {
            let manager = manager
            updater = GrowthBookUpdater(
                every: connection.refreshInterval,
                streamURL: connection.streamURL,
                streamingOffered: { fetcher.streaming.isEnabled },
                streamStarted: { source.setTransport("streaming") },
                // This source alone (catalogs ship with the app); its errors reach the status line.
                fetch: { await manager.update(only: [source.name]) },
                receive: { data in
                    // A pushed payload that does not load leaves the last good one, as a fetched one does.
                    do {
                        try source.accept(data)
                        try manager.refresh()
                    } catch {}
                }
            )
            if connection.autoRefresh { updater?.start() }
        } else {
            updater = nil
        }
    }

    /// Whether this module was built for debugging, which decides whether an
    /// app has a debug source unless it says otherwise. SwiftPM builds an
    /// app and its packages in one configuration, so this is the app's too.
    public static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
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
