/// What a remote source keeps between starts: its last good payload, so a
/// start without network serves it, and GrowthBook's sticky-bucket documents.
public protocol PayloadCache: WatchableStore {
    /// The last good payload of a remote source.
    func payload(source: String) throws -> StoredPayload?

    /// Replaces the last good payload of a remote source.
    func setPayload(_ payload: StoredPayload, source: String) throws

    /// A remote source's sticky-bucket documents (GrowthBook's), as JSON
    /// text by their key (`attribute||value`).
    func stickyBuckets(source: String) throws -> [String: String]

    /// Stores these sticky-bucket documents, replacing those with the same
    /// keys; the source's other documents stay.
    func setStickyBuckets(_ documents: [String: String], source: String) throws
}
