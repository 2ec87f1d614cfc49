import Foundation
internal import GRDB
import GrowthBook
import Laboratory
import Synchronization

/// The state file: a `StateStore`, `EventSink` and `EventLog` on SQLite.
///
/// The app and `lab console` open the same file at the same time. It is in
/// WAL mode, so readers never wait for writers; every write is one immediate
/// transaction, and a busy file is waited for (up to ten seconds) rather than
/// failed, so nothing either process writes is lost. The file and its folder
/// are created private to the user (0600 / 0700).
public final class SQLiteStateStore: StateStore, EventSink, EventLog, Sendable {
    /// The path as given.
    public let path: String
    private let queue: DatabaseQueue
    /// Changes: this store's own writes as they commit, other processes' within 50 ms.
    public let signal: ChangeSignal
    /// The active set as this store last wrote or read it, with its digest:
    /// while the file's digest is still that one, the next swap diffs
    /// against it instead of reading every active row again.
    let lastActiveSet = Mutex<(digest: String, assignments: [Assignment])?>(nil)

    /// The version of the state files this release writes; older ones are
    /// upgraded in place when opened, newer ones refused.
    public static var fileVersion: Int { StateSchema.version }

    /// Opens the state file at `path`, creating it (and its folder) if needed.
    ///
    /// A file that is not a Laboratory state file is refused and left as it is.
    public init(path: String) throws(SQLiteStoreError) {
        self.path = path
        try Self.createIfMissing(path)
        let inWALMode = try Self.checkHeader(path)
        // Look before switching to WAL: the switch itself writes to the file.
        let needsSchema = try Self.opening(path) {
            var inspection = Configuration()
            inspection.readonly = true
            inspection.busyMode = .timeout(10)
            return try DatabaseQueue(path: path, configuration: inspection).read { db in
                try StateSchema.check(db, path: path)
            }
        }
        var configuration = Configuration()
        // A file already in WAL mode stays in it; asking again would make GRDB
        // write to it on opening whenever no WAL file exists yet, and a reader
        // would wait behind another process's long write.
        configuration.journalMode = inWALMode ? .default : .wal
        configuration.busyMode = .timeout(10)
        configuration.label = "Laboratory state"
        // The write-ahead log may reach 4,096 pages (16 MB) before it is
        // copied into the file: a first start writes 8 MB (10,000 draws,
        // 20,000 active assignments and events), and copying them in the
        // middle of it, then waiting for the disk, was 40 ms before the
        // first frame. The copy happens instead when the last connection
        // closes (the console quits), or at a later write.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 4096") }
        queue = try Self.opening(path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Only a new or older file is written to on opening: a reader such
            // as `lab events` must not wait for another process's long write.
            if needsSchema { try StateSchema.migrate(queue, path: path) }
            return queue
        }
        let queue = queue
        signal = StateFileWatcher.signal {
            try? queue.read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") }
        }
    }

    /// Announces each of this store's writes that changed rows as it
    /// commits, and other processes' commits within 50 ms while anybody
    /// listens: the state and the events alike.
    public var changeSignal: ChangeSignal? { signal }

    /// Runs a step of opening, turning what SQLite says into an error that names the path.
    private static func opening<T>(_ path: String, _ body: () throws -> T) throws(SQLiteStoreError) -> T {
        do {
            return try body()
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .database(path: path, reason: reason(error))
        }
    }

    // MARK: - Opening

    private static func createIfMissing(_ path: String) throws(SQLiteStoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .cannotOpen(path: path, reason: "cannot create folder \(folder): \(SystemErrorReason.of(error))")
            }
        }
        // Anything but a regular file is refused before it is opened: reading a
        // FIFO would wait for a writer for ever, and SQLite has no use for the rest.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a directory"
                case S_IFIFO: "a FIFO"
                case S_IFCHR, S_IFBLK: "a device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw .cannotOpen(path: path, reason: "it is \(kind); a state file is a regular file")
        }
        // O_EXCL: if another process creates it first, ours is simply not needed.
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Refuses a file that is not empty and does not start like a SQLite database,
    /// before SQLite gets a chance to treat it as one.
    /// - Returns: whether the file is in WAL mode (header bytes 18 and 19 are 2).
    private static func checkHeader(_ path: String) throws(SQLiteStoreError) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 20)) ?? Data())
        if header.isEmpty { return false }
        if !header.starts(with: Array("SQLite format 3\0".utf8)) { throw .notADatabase(path: path) }
        return header.count == 20 && header[18] == 2 && header[19] == 2
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return String(describing: error)
    }

    // MARK: - Access

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        var changed = false
        let result = try reportingErrors {
            try queue.write { db in
                let before = db.totalChangesCount
                defer { changed = db.totalChangesCount != before }
                return try body(db)
            }
        }
        if changed { signal.announce() }
        return result
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try reportingErrors { try queue.read(body) }
    }

    /// Runs an access, turning what it throws into a ``SQLiteStoreError`` that names the file.
    private func reportingErrors<T>(_ access: () throws -> T) throws -> T {
        do {
            return try access()
        } catch let error as SQLiteStoreError {
            throw error
        } catch let error as RowDecodingError {
            throw SQLiteStoreError.unexpectedValue(path: path, detail: String(describing: error))
        } catch let error as DamagedValue {
            throw SQLiteStoreError.unexpectedValue(path: path, detail: error.description)
        } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
            throw SQLiteStoreError.locked(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw SQLiteStoreError.diskFull(path: path)
        } catch {
            throw SQLiteStoreError.database(path: path, reason: Self.reason(error))
        }
    }

    /// Raises the revision: every write that changes something calls it once,
    /// so other processes watching ``revision()`` see the change; a write to
    /// the device, its draws or a stabilization (`device`) raises
    /// ``deviceRevision()`` with it.
    static func bumpRevision(_ db: Database, device: Bool = false) throws {
        try db.execute(
            sql: device
                ? "UPDATE file_state SET revision = revision + 1, deviceRevision = deviceRevision + 1"
                : "UPDATE file_state SET revision = revision + 1"
        )
    }

    public func revision() throws -> Int64 {
        try read { db in try FileStateRecord.fetchOne(db)?.revision ?? 0 }
    }

    public func deviceRevision() throws -> Int64 {
        try read { db in try FileStateRecord.fetchOne(db)?.deviceRevision ?? 0 }
    }
}
