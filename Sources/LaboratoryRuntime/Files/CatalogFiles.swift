import Dispatch
import Foundation
import Laboratory
import Synchronization

extension CatalogFile {
    /// Reads the catalog file at `path`; a file that cannot be read becomes
    /// an "unreadable" error that says why.
    /// - Parameter name: how diagnostics name the file; the path by default.
    public init(reading path: String, name: String? = nil) {
        do {
            self.init(name: name ?? path, contents: .success(try FileContents.read(path)))
        } catch {
            self = .unreadable(name ?? path, reason: error.reason)
        }
    }
}

extension CatalogDecoder {
    /// Reads and decodes the catalog file at `path`.
    ///
    /// - Parameter displayName: how diagnostics name the file; the path by default.
    public func decode(contentsOf path: String, displayName: String? = nil) throws(CatalogError) -> Catalog {
        let file = CatalogFile(reading: path, name: displayName)
        return try decode(try file.contents.get(), file: file.name)
    }

    /// Reads and decodes the catalog file at `path`, remembering where its parts are.
    public func decodeLocated(contentsOf path: String) throws(CatalogError) -> LocatedCatalog {
        try decodeLocated(try CatalogFile(reading: path).contents.get(), file: path)
    }

    /// Reads and decodes several catalog files at once; results in the order given.
    ///
    /// A few files get a thread each rather than one per core: with three
    /// catalogs on two cores, a thread per core would decode two files one
    /// after the other while the other core idles for the length of one.
    public func decode(contentsOf paths: [String]) -> [Result<Catalog, CatalogError>] {
        let results = Mutex<[Result<Catalog, CatalogError>?]>(Array(repeating: nil, count: paths.count))
        let decodeOne: @Sendable (Int) -> Void = { index in
            let result = Result { () throws(CatalogError) in try decode(contentsOf: paths[index]) }
            results.withLock { $0[index] = result }
        }
        if paths.count > 1 && paths.count <= 8 {
            let group = DispatchGroup()
            for index in paths.indices.dropFirst() {
                group.enter()
                Thread {
                    decodeOne(index)
                    group.leave()
                }.start()
            }
            decodeOne(0)
            group.wait()
        } else {
            DispatchQueue.concurrentPerform(iterations: paths.count, execute: decodeOne)
        }
        return results.withLock { $0.map { $0! } }
    }
}

extension CatalogLinter {
    /// Reads the catalog files at `paths` and checks them together, and
    /// GrowthBook payloads (name and text) against them.
    public func check(paths: [String], payloads: [(name: String, text: String)] = []) -> Report {
        check(files: paths.map { CatalogFile(reading: $0) }, payloads: payloads)
    }
}
