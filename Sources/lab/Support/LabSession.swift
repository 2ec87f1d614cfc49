import ArgumentParser
import Foundation
import GrowthBook
import GrowthBookNetwork
import Laboratory
import LaboratoryConsole
import LaboratoryRuntime
import LaboratorySQLite

/// Everything a command works on: catalogs, state file, sources and manager,
/// wired the way an app wires them (local sources inside a debug source).
struct LabSession {
    let laboratory: LocalLaboratory
    /// The debug source `lab` always wires in: forcing is what it is for.
    let debug: DebugSource
    /// The command line's `--attribute`s: this run's, over those stored in the state file.
    let attributes: [String: String]
    /// The source over the `--growthbook` payload, as the session built it.
    let growthBook: GrowthBookSource?
    /// Forces, unforces, resets and imports, as the console and the server do.
    let steering: Steering
    /// Who the changes of this session are recorded as: the local user.
    var tester: String { LocalTester.name }

    var store: SQLiteStateStore { laboratory.store }
    var device: Device { laboratory.device }
    var manager: AssignmentsManager { laboratory.manager }

    /// Loads the catalogs, then opens the state file.
    ///
    /// Catalogs come first: a bad one ends the command with status 65 before
    /// the state file is touched.
    ///
    /// - Parameter refreshInterval: seconds between fetches of a `--growthbook`
    ///   server, for the commands that start its updater.
    static func open(_ options: GlobalOptions, refreshInterval: Int = 30) throws -> LabSession {
        let catalogs = try loadCatalogs(options)
        let remote = try RemoteOption(options, refreshInterval: refreshInterval)
        var connection: GrowthBookConnection?
        var file: String?
        switch remote {
        case .server(let server)?: connection = server
        case .file(let path)?: file = path
        case nil: break
        }
        var fileSource: GrowthBookSource?
        let laboratory = try reportingStateErrors {
            try LocalLaboratory(
                catalogs: catalogs.map { (path: $0.0, catalog: $0.1) },
                statePath: options.statePath,
                // The command line's attributes are this run's (below), not the device's own:
                // a value the console changes or removes then gives way instead of coming back.
                debugSource: true,
                app: nil,
                growthBook: connection,
                remotes: { store, device in
                    fileSource = file.map {
                        RemoteOption.fileSource($0, store: store, device: device, options: options)
                    }
                    return fileSource.map { [$0] } ?? []
                }
            )
        }
        let growthBook = laboratory.growthBook ?? fileSource
        // A payload file is local: read it now, as a catalog is.
        if let file, let source = growthBook {
            do {
                try source.accept(try FileContents.read(file))
            } catch let error as GrowthBookPayload.Invalid {
                printError("\(file): \(error)")
                throw ExitCode(ExitStatus.dataError)
            } catch let error as SQLiteStoreError {
                printError(error.description)
                throw ExitCode(ExitStatus.ioError)
            } catch let error as FileContents.Unreadable {
                printError(error.description)
                throw ExitCode(ExitStatus.noInput)
            } catch {
                printError("\(file): \(error)")
                throw ExitCode.failure
            }
        }
        guard let debug = laboratory.debug, let steering = laboratory.steering else {
            preconditionFailure("lab's wiring always has a debug source")
        }
        // The sources take them with the stored ones (a `userId` logs the local sources' user in);
        // the debug source matches scoped forced variants against all of them.
        debug.useAttributes(options.attributes)
        return LabSession(
            laboratory: laboratory,
            debug: debug,
            attributes: options.attributes,
            growthBook: growthBook,
            steering: steering
        )
    }

    /// The catalog files named on the command line, or the demo catalog.
    static func catalogPaths(_ options: GlobalOptions) throws -> [String] {
        if !options.catalogs.isEmpty || options.growthbook != nil { return options.catalogs }
        guard let demo = DemoCatalog.locate() else {
            printError("no --catalog given and the demo catalog (\(DemoCatalog.relativePath)) was not found")
            throw ExitCode(ExitStatus.noInput)
        }
        return [demo]
    }

    /// The catalogs' experiments by `source/name`, for reading old event
    /// rows; a catalog that does not load is left out without a word, as
    /// commands that only read events need none.
    static func catalogExperiments(_ options: GlobalOptions) -> [ExperimentID: Experiment] {
        let paths =
            options.catalogs.isEmpty && options.growthbook == nil
            ? DemoCatalog.locate().map { [$0] } ?? [] : options.catalogs
        var experiments: [ExperimentID: Experiment] = [:]
        for case .success(let catalog) in CatalogDecoder().decode(contentsOf: paths) {
            for experiment in catalog.experiments {
                experiments[ExperimentID(source: catalog.source, name: experiment.name)] = experiment
            }
        }
        return experiments
    }

    private static func loadCatalogs(_ options: GlobalOptions) throws -> [(String, Catalog)] {
        var loaded: [(String, Catalog)] = []
        var failed = false
        var unreadable = false
        let paths = try catalogPaths(options)
        for (path, result) in zip(paths, CatalogDecoder().decode(contentsOf: paths)) {
            switch result {
            case .success(let catalog):
                loaded.append((path, catalog))
            case .failure(let error):
                for diagnostic in error.diagnostics {
                    StandardStreams.write(TerminalText.visible(diagnostic.description) + "\n", to: STDERR_FILENO)
                }
                failed = true
                unreadable = unreadable || error.isUnreadable
            }
        }
        var owners: [String: String] = [:]
        for (path, catalog) in loaded {
            if let other = owners[catalog.source] {
                StandardStreams.write(
                    TerminalText.visible(
                        "\(path): error: source \"\(catalog.source)\" is also the source of \(other); source names must be unique"
                    ) + "\n",
                    to: STDERR_FILENO
                )
                failed = true
            }
            owners[catalog.source] = path
        }
        if failed { throw ExitCode(unreadable ? ExitStatus.noInput : ExitStatus.dataError) }
        return loaded
    }

    /// Runs `body`, turning state-file and debug-source errors into a
    /// message on standard error and a non-zero exit status.
    static func reportingStateErrors<T>(_ body: () throws -> T) throws -> T {
        // SQLiteStoreError is also what opening the state file throws.
        do {
            return try body()
        } catch let error as SQLiteStoreError {
            printError(error.description)
            throw ExitCode(ExitStatus.ioError)
        } catch let error as DebugSourceError {
            printError(error.description)
            throw ExitCode.failure
        }
    }

    /// When the `--growthbook` server's payload is fetched next, as Settings shows it.
    var fetchSchedules: [String: FetchSchedule] {
        guard let source = growthBook, let updater = laboratory.updater, let next = updater.nextFetch else {
            return [:]
        }
        return [source.name: FetchSchedule(next: next, interval: Int(updater.interval.components.seconds))]
    }

    /// Runs `body` with state-file and debug-source errors reported.
    func run<T>(_ body: () throws -> T) throws -> T {
        try Self.reportingStateErrors(body)
    }
}

/// What `--growthbook` names: a payload file read at start-up, or a server
/// that the console and `lab serve` keep current.
enum RemoteOption {
    case file(String)
    case server(GrowthBookConnection)

    init?(_ options: GlobalOptions, refreshInterval: Int) throws {
        guard let target = options.growthbook else { return nil }
        guard target.hasPrefix("http://") || target.hasPrefix("https://") else {
            self = .file(target)
            return
        }
        guard let url = URL(string: target) else { throw ValidationError("--growthbook: not a URL: \(target)") }
        // Commands update on demand (`lab update`); the console and `lab serve` start the updater.
        if let key = options.clientKey {
            self = .server(
                GrowthBookConnection(
                    apiHost: url,
                    clientKey: key,
                    decryptionKey: options.decryptionKey,
                    refreshInterval: .seconds(refreshInterval),
                    autoRefresh: false
                )
            )
        } else {
            self = .server(
                GrowthBookConnection(
                    featuresURL: url,
                    decryptionKey: options.decryptionKey,
                    refreshInterval: .seconds(refreshInterval),
                    autoRefresh: false
                )
            )
        }
    }

    /// The source over a payload file, read at start-up as a catalog is.
    static func fileSource(
        _ path: String,
        store: SQLiteStateStore,
        device: Device,
        options: GlobalOptions
    ) -> GrowthBookSource {
        GrowthBookSource(
            store: store,
            device: device,
            fetcher: PlainPayloadFetcher(FileFetcher(path: path)),
            decrypt: PayloadDecryption.decrypter(key: options.decryptionKey),
            file: path
        )
    }
}
