import LaboratorySQLite

/// The version `lab --version` prints, with the state file version it writes.
enum LabVersion {
    static let release = "0.6.0"
    /// When `release` came out: the manual page's date, changed with the
    /// number (a date taken from the clock would make the shipped page differ
    /// from a generated one every month).
    static let releaseDate = "November 2026"

    static var description: String { "\(release) (state file version \(SQLiteStateStore.fileVersion))" }
}
