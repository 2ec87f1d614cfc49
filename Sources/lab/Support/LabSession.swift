import ArgumentParser
import Foundation
import Laboratory
import LaboratorySQLite

/// Everything a command works on: catalogs, state file, sources and manager,
/// wired the way an app wires them (local sources inside a debug source).
struct LabSession {
    let store: SQLiteStateStore
    let device: Device
    let locals: [LocalSource]
    let debug: DebugSource
    let manager: AssignmentsManager

    /// Loads the catalogs, then opens the state file.
    ///
    /// Catalogs come first: a bad one ends the command with status 65 before
    /// the state file is touched.
    static func open(_ options: GlobalOptions) throws -> LabSession {
        let catalogs = try loadCatalogs(options)
        let store: SQLiteStateStore
        do {
            store = try SQLiteStateStore(path: options.statePath)
        } catch {
            printError(error.description)
            throw ExitCode(ExitStatus.ioError)
        }
        return try reportingStateErrors {
            let random = SystemRandomSource()
            let device = try store.device(
                candidate: Device(id: UUID().uuidString.lowercased(), token: .draw(using: random)))
            let locals = catalogs.map { path, catalog in
                LocalSource(
                    catalog: catalog, store: store, device: device, random: random,
                    fetcher: FileFetcher(path: path), file: path)
            }
            let debug = DebugSource(sources: locals, store: store)
            let manager = AssignmentsManager(sources: [debug], store: store, events: store, device: device)
            return LabSession(store: store, device: device, locals: locals, debug: debug, manager: manager)
        }
    }

    /// The catalog files named on the command line, or the demo catalog.
    static func catalogPaths(_ options: GlobalOptions) throws -> [String] {
        if !options.catalogs.isEmpty { return options.catalogs }
        guard let demo = DemoCatalog.locate() else {
            printError("no --catalog given and the demo catalog (\(DemoCatalog.relativePath)) was not found")
            throw ExitCode(ExitStatus.noInput)
        }
        return [demo]
    }

    private static func loadCatalogs(_ options: GlobalOptions) throws -> [(String, Catalog)] {
        var loaded: [(String, Catalog)] = []
        var failed = false
        var unreadable = false
        for path in try catalogPaths(options) {
            do {
                loaded.append((path, try CatalogDecoder().decode(contentsOf: path)))
            } catch {
                for diagnostic in error.diagnostics {
                    FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
                }
                failed = true
                unreadable = unreadable || error.isUnreadable
            }
        }
        var owners: [String: String] = [:]
        for (path, catalog) in loaded {
            if let other = owners[catalog.source] {
                FileHandle.standardError.write(Data(
                    "\(path): error: source \"\(catalog.source)\" is also the source of \(other); source names must be unique\n".utf8))
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

    /// Runs `body` with state-file and debug-source errors reported.
    func run<T>(_ body: () throws -> T) throws -> T {
        try Self.reportingStateErrors(body)
    }
}
