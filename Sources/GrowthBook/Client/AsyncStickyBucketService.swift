import Synchronization

/// Where sticky bucket documents live when reaching them takes a network
/// or a database round trip (Redis, a table, a cookie store): GrowthBook's
/// asynchronous `StickyBucketService`. Documents are in GrowthBook's JSON
/// shape (`attributeName`, `attributeValue`, `assignments`), so documents
/// other SDKs wrote read the same.
///
/// ``GrowthBookClient/user(_:url:stickyBuckets:)`` reads a user's documents
/// once, before the user's first evaluation, and saves what changes in the
/// order it changed, without making an evaluation wait.
public protocol AsyncStickyBucketService: Sendable {
    /// The document of one attribute value, if one was saved.
    func assignments(attributeName: String, attributeValue: String) async throws -> JSONValue?
    /// Saves a document, replacing the one of its attribute value.
    func saveAssignments(_ document: JSONValue) async throws
}

/// One user's sticky buckets while they are evaluated: the documents read
/// for them, kept in memory for every evaluation, each change handed on to
/// the asynchronous service in order by one task.
final class UserStickyBuckets: StickyBucketService {
    private let documents = InMemoryStickyBucketService()
    private let saves: AsyncStream<JSONValue>.Continuation

    /// Reads the user's documents (those of `identifiers`, attribute →
    /// value) from `service`; a failed read counts as no document.
    init(service: any AsyncStickyBucketService, identifiers: [String: String]) async {
        for (name, value) in identifiers {
            if let document = try? await service.assignments(attributeName: name, attributeValue: value) {
                documents.saveAssignments(document)
            }
        }
        let (stream, continuation) = AsyncStream<JSONValue>.makeStream()
        saves = continuation
        Task {
            for await document in stream { try? await service.saveAssignments(document) }
        }
    }

    deinit { saves.finish() }

    func assignments(attributeName: String, attributeValue: String) -> JSONValue? {
        documents.assignments(attributeName: attributeName, attributeValue: attributeValue)
    }

    func saveAssignments(_ document: JSONValue) {
        documents.saveAssignments(document)
        saves.yield(document)
    }
}
