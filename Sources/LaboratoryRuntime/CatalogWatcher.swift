import Foundation
import Laboratory
import Synchronization

/// Notices edited catalog files and reloads them into their local sources,
/// and edited payload files into theirs (`FetchingSource/watchedFile`),
/// so a running process (`lab serve`, the console) serves what the files say now.
///
/// A file counts as changed when its modification time, size or inode
/// moved (editors that save by renaming a new file over the old one change
/// the inode). A catalog that no longer loads keeps its last good contents
/// in use; the problem is reported once per change of the file.
public final class CatalogWatcher: Sendable {
    private let catalogs: [(path: String, source: any ExperimentSource)]
    private let seen: Mutex<[String: Signature]>

    /// What `stat` says about a file, enough to notice an edit.
    struct Signature: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: timespec

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
                && lhs.modified.tv_nsec == rhs.modified.tv_nsec
        }
    }

    /// Watches the catalog files `laboratory` was built from, and the files its sources read.
    public init(laboratory: LocalLaboratory) {
        catalogs =
            Array(zip(laboratory.catalogPaths, laboratory.locals)).map { (path: $0, source: $1) }
            + laboratory.sources.compactMap { source in source.fetching?.watchedFile.map { (path: $0, source: source) }
            }
        var signatures: [String: Signature] = [:]
        for (path, _) in catalogs { signatures[path] = Self.signature(of: path) }
        seen = Mutex(signatures)
    }

    /// Reloads every catalog whose file changed since the last look.
    /// - Returns: how many were reloaded, and why the others that changed were not.
    public func reloadChanged() async -> (reloaded: Int, problems: [String]) {
        var reloaded = 0
        var problems: [String] = []
        for (path, source) in catalogs {
            let now = Self.signature(of: path)
            let changed = seen.withLock { seen in
                defer { seen[path] = now }
                return seen[path] != now
            }
            guard changed else { continue }
            guard now != nil else {
                problems.append("\(path): the file is gone; the last good one stays in use")
                continue
            }
            do {
                try await source.update()
                reloaded += 1
            } catch {
                // Catalog errors name the file (with line and column) themselves.
                let reason = String(describing: error)
                problems.append(
                    (reason.hasPrefix(path) ? reason : "\(path): \(reason)") + "; the last good one stays in use"
                )
            }
        }
        return (reloaded, problems)
    }

    private static func signature(of path: String) -> Signature? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Signature(inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: status.st_mtim)
    }
}
