import GrowthBook

/// A catalog that could not be loaded, with every problem found in it.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public var diagnostics: [Diagnostic]

    /// Whether the file could not be read at all (as opposed to read and found wrong).
    public var isUnreadable: Bool

    /// An error of these diagnostics; `isUnreadable` when the file could not be read at all.
    public init(diagnostics: [Diagnostic], isUnreadable: Bool = false) {
        self.diagnostics = diagnostics
        self.isUnreadable = isUnreadable
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
