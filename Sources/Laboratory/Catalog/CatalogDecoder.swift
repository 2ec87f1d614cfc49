import Foundation
import GrowthBook

/// Reads catalog files into a ``Catalog``, checking every structural rule.
///
/// Rules: every variant assigns exactly the experiment's keys; the baseline
/// names a variant; weights are positive; the token range lies in [0, 1]
/// with start <= end; experiment, variant and key names are unique; and no
/// field is unknown (a misspelt `wieght` would otherwise be silently ignored).
/// All problems are collected, not only the first, each with its line and column.
public struct CatalogDecoder: Sendable {
    /// A decoder; it keeps nothing between catalogs.
    public init() {}

    /// Decodes catalog JSON; `file` names it in diagnostics.
    public func decode(_ data: Data, file: String) throws(CatalogError) -> Catalog {
        // Straight to the model first; only a catalog with a problem is read
        // again with positions, for diagnostics that say where.
        if let catalog = CatalogFastReader.read(ascii: data) { return catalog }
        if let text = String(data: data, encoding: .utf8), let catalog = CatalogFastReader.read(text) {
            return catalog
        }
        return try decode(data, file: file, recordingLocations: false).catalog
    }

    /// Decodes catalog JSON and remembers where each experiment's parts are.
    public func decodeLocated(_ data: Data, file: String) throws(CatalogError) -> LocatedCatalog {
        try decode(data, file: file, recordingLocations: true)
    }

    private func decode(_ data: Data, file: String, recordingLocations: Bool) throws(CatalogError) -> LocatedCatalog {
        let read = try Self.parse(data, file: file, recordingLocations: recordingLocations)
        guard let catalog = read.catalog, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw CatalogError(diagnostics: read.diagnostics)
        }
        return LocatedCatalog(file: file, catalog: catalog, locations: read.locations)
    }

    /// What reading a catalog's text found: the catalog (all its experiments,
    /// sound or not), the names of those with errors of their own, and every
    /// diagnostic, stable by position. Throws only when the text cannot be parsed.
    private static func parse(
        _ data: Data,
        file: String,
        recordingLocations: Bool
    ) throws(CatalogError) -> (
        catalog: Catalog?, flawed: Set<String>, unplaced: Set<String>, locations: [String: ExperimentLocation],
        diagnostics: [Diagnostic]
    ) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw CatalogError(diagnostics: [
                Diagnostic(file: file, position: nil, message: "the file is not valid UTF-8 text")
            ])
        }
        // The reader lives in a box so the parser's callback can feed it.
        let reader = ReaderBox(CatalogReader(file: file, recordsLocations: recordingLocations))
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text, streaming: "experiments") { reader.value.readExperiment($0) }
        } catch {
            throw CatalogError(diagnostics: [
                Diagnostic(file: file, position: error.position, message: "malformed JSON: \(error.message)")
            ])
        }
        let catalog = reader.value.read(root)
        // Stable by position: problems at one place keep the order they were found in.
        let origin = SourcePosition(line: 0, column: 0)
        let diagnostics = reader.value.diagnostics.enumerated().sorted {
            ($0.element.position ?? origin, $0.offset) < ($1.element.position ?? origin, $1.offset)
        }.map(\.element)
        return (catalog, reader.value.flawed, reader.value.unplaced, reader.value.locations ?? [:], diagnostics)
    }

    /// Decodes a catalog for `lab check`: every diagnostic, and the sound part
    /// of the catalog (the experiments without errors of their own), so that
    /// one broken experiment does not hide key overlaps and warnings elsewhere.
    public func decodeForChecking(
        _ file: CatalogFile
    ) -> (catalog: LocatedCatalog?, diagnostics: [Diagnostic], isUnreadable: Bool) {
        do {
            let read = try Self.parse(try file.contents.get(), file: file.name, recordingLocations: true)
            guard var catalog = read.catalog else { return (nil, read.diagnostics, false) }
            let flawed = catalog.experiments.filter { read.flawed.contains($0.name) }
            catalog.experiments.removeAll { read.flawed.contains($0.name) }
            var located = LocatedCatalog(file: file.name, catalog: catalog, locations: read.locations)
            located.flawedExperiments = flawed.filter { !read.unplaced.contains($0.name) }
            return (located, read.diagnostics, false)
        } catch {
            return (nil, error.diagnostics, error.isUnreadable)
        }
    }
}

/// Holds the reader the parser's element callback writes to.
private final class ReaderBox {
    var value: CatalogReader
    init(_ value: CatalogReader) { self.value = value }
}
