import Foundation
import GrowthBook

/// A catalog file as its reader found it: its bytes, or why it could not be
/// read. The core decodes and checks what it is given; reading is left to
/// the edges (`LaboratorySQLite` reads files from disk).
public struct CatalogFile: Sendable {
    /// How diagnostics name the file (its path).
    public var name: String
    /// The file's bytes, or why they could not be read.
    public var contents: Result<Data, CatalogError>

    /// A file named `name` (as diagnostics print it) with its contents.
    public init(name: String, contents: Result<Data, CatalogError>) {
        self.name = name
        self.contents = contents
    }

    /// A file that could not be read, and why, in plain words.
    public static func unreadable(_ name: String, reason: String) -> CatalogFile {
        CatalogFile(
            name: name,
            contents: .failure(
                CatalogError(
                    diagnostics: [Diagnostic(file: name, position: nil, message: "cannot read the file: \(reason)")],
                    isUnreadable: true
                )
            )
        )
    }
}
