import LaboratorySQLite

/// The version `lab --version` prints, with the state file version it writes.
enum LabVersion {
    static let release = "0.6.0"

    static var description: String { "\(release) (state file version \(SQLiteStateStore.fileVersion))" }
}
