/// Why the state file could not be opened or used. Every case names the path.
public enum SQLiteStoreError: Error, CustomStringConvertible, Equatable {
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String)
    /// The file is a SQLite database of some other program.
    case foreignDatabase(path: String)
    /// The file is a Laboratory state file of a newer version than this program knows.
    case newerVersion(path: String, version: Int)
    /// The file or its folder cannot be created or opened.
    case cannotOpen(path: String, reason: String)
    /// SQLite reported an error (corruption, a full disk, a lock held too long).
    case database(path: String, reason: String)
    /// A row holds a value of a type its column never gets (edited by hand, damaged).
    case unexpectedValue(path: String, detail: String)
    /// A Laboratory state file whose tables are not what Laboratory makes
    /// (a table dropped or rebuilt, a view or trigger added); it was left untouched.
    case damaged(path: String, detail: String)
    /// Another process held the file's write lock for longer than the busy timeout.
    case locked(path: String)
    /// The disk (or the file system's quota) has no room for what was written; nothing of it was kept.
    case diskFull(path: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path): not a Laboratory state file (it is not a SQLite database); it was left untouched"
        case .foreignDatabase(let path):
            return
                "\(path): not a Laboratory state file (it is a SQLite database of another program); it was left untouched"
        case .newerVersion(let path, let version):
            return "\(path): the state file was written by a newer release of Laboratory (file version "
                + "\(version), with changes this release does not know); this release reads up to version "
                + "\(StateSchema.version)"
        case .cannotOpen(let path, let reason):
            return "\(path): cannot open the state file: \(reason)"
        case .database(let path, let reason):
            return "\(path): state file error: \(reason)"
        case .unexpectedValue(let path, let detail):
            return "\(path): the state file holds an unexpected value (\(detail)); it was left as it is"
        case .damaged(let path, let detail):
            return "\(path): the state file is damaged: \(detail); it was left untouched "
                + "(move it aside to start a new one, or restore a copy)"
        case .locked(let path), .diskFull(let path):
            return "\(path): \(reason)"
        }
    }

    /// What went wrong, without the path: for answers to clients, which do not need to know where the file is.
    public var reason: String {
        switch self {
        case .locked:
            return "another process has held the state file's write lock too long; nothing was written"
        case .diskFull:
            return "disk full: there is no room to write the state file; nothing was written"
        case .database(_, let reason), .cannotOpen(_, let reason): return reason
        case .notADatabase, .foreignDatabase: return "the state file is not a Laboratory state file"
        case .newerVersion(_, let version): return "the state file is of a newer release (file version \(version))"
        case .unexpectedValue(_, let detail): return "the state file holds an unexpected value (\(detail))"
        case .damaged(_, let detail): return "the state file is damaged: \(detail)"
        }
    }

    /// Whether the same access may succeed if tried again shortly (a lock held elsewhere).
    public var isTransient: Bool {
        if case .locked = self { return true }
        return false
    }
}
