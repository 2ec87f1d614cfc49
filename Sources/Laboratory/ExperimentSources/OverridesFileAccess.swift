import Foundation

/// How overrides files are read and written: the core and the console do no
/// file I/O of their own; `LaboratorySQLite` gives `.disk`, the same reading
/// and private writing `lab overrides` uses.
public struct OverridesFileAccess: Sendable {
    /// The bytes of the file at a path; the error says why in plain words.
    public var read: @Sendable (String) throws -> Data
    /// Writes data to a path, readable by its owner only.
    public var writePrivate: @Sendable (Data, String) throws -> Void

    /// Access through these two functions (the disk's, or a test's).
    public init(
        read: @escaping @Sendable (String) throws -> Data,
        writePrivate: @escaping @Sendable (Data, String) throws -> Void
    ) {
        self.read = read
        self.writePrivate = writePrivate
    }
}
