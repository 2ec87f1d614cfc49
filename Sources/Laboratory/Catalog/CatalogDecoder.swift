import Foundation

/// Reads catalog files into a ``Catalog``, checking every structural rule.
///
/// Rules: every variant assigns exactly the experiment's keys; the baseline
/// names a variant; weights are positive; the token range lies in [0, 1]
/// with start <= end; experiment, variant and key names are unique; and no
/// field is unknown (a misspelt `wieght` would otherwise be silently ignored).
/// All problems are collected, not only the first, each with its line and column.
public struct CatalogDecoder: Sendable {
    public init() {}

    /// Reads and decodes the catalog file at `path`.
    ///
    /// - Parameter displayName: how diagnostics name the file; the path by default.
    public func decode(contentsOf path: String, displayName: String? = nil) throws(CatalogError) -> Catalog {
        let name = displayName ?? path
        let unreadable = { (reason: String) in
            CatalogError(
                diagnostics: [Diagnostic(file: name, position: nil, message: "cannot read the file: \(reason)")],
                isUnreadable: true)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw unreadable("no such file")
        }
        if isFolder.boolValue { throw unreadable("it is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw unreadable("permission denied") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(error.localizedDescription)
        }
        return try decode(data, file: name)
    }

    /// Decodes catalog JSON; `file` names it in diagnostics.
    public func decode(_ data: Data, file: String) throws(CatalogError) -> Catalog {
        guard let text = String(data: data, encoding: .utf8) else {
            throw CatalogError(diagnostics: [
                Diagnostic(file: file, position: nil, message: "the file is not valid UTF-8 text")
            ])
        }
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            throw CatalogError(diagnostics: [
                Diagnostic(file: file, position: error.position, message: "malformed JSON: \(error.message)")
            ])
        }
        var reader = CatalogReader(file: file)
        let catalog = reader.read(root)
        let errors = reader.diagnostics.filter { $0.severity == .error }
        guard let catalog, errors.isEmpty else {
            throw CatalogError(diagnostics: reader.diagnostics.sorted { ($0.position ?? .init(line: 0, column: 0)) < ($1.position ?? .init(line: 0, column: 0)) })
        }
        return catalog
    }

    /// Decodes several catalog files at once, one per core; results in the order given.
    public func decode(contentsOf paths: [String]) -> [Result<Catalog, CatalogError>] {
        let results = ResultSlots(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            results.set(index, Result { () throws(CatalogError) in try decode(contentsOf: paths[index]) })
        }
        return results.values
    }
}

/// Slots that concurrent decodes fill in, each its own.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [Result<Catalog, CatalogError>?]
    private let lock = Lock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<Catalog, CatalogError>) {
        lock.withLock { slots[index] = result }
    }

    var values: [Result<Catalog, CatalogError>] { lock.withLock { slots.map { $0! } } }
}
