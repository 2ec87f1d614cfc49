import Synchronization

/// Where a user's sticky bucket documents live between evaluations
/// (GrowthBook's `StickyBucketService`): one document per hash attribute
/// value, in GrowthBook's JSON shape (`attributeName`, `attributeValue`,
/// `assignments`), so documents other SDKs wrote read the same.
public protocol StickyBucketService: Sendable {
    /// The document of one attribute value, if one was saved.
    func assignments(attributeName: String, attributeValue: String) -> JSONValue?
    /// Saves a document, replacing the one of its attribute value.
    func saveAssignments(_ document: JSONValue)
}

/// Sticky bucket documents in memory: for tests, and for a process that
/// only needs them while it runs.
public final class InMemoryStickyBucketService: StickyBucketService {
    private let documents = Mutex<[String: JSONValue]>([:])

    /// An empty store.
    public init() {}

    public func assignments(attributeName: String, attributeValue: String) -> JSONValue? {
        documents.withLock { $0[Self.key(attributeName, attributeValue)] }
    }

    public func saveAssignments(_ document: JSONValue) {
        guard let name = document["attributeName"]?.stringValue, let value = document["attributeValue"] else { return }
        documents.withLock { $0[Self.key(name, JavaScriptSemantics.string(value))] = document }
    }

    /// Where a document is kept: `attribute||value`.
    private static func key(_ attributeName: String, _ attributeValue: String) -> String {
        "\(attributeName)||\(attributeValue)"
    }

    /// Every document saved, by `attribute||value`.
    public var all: [String: JSONValue] { documents.withLock { $0 } }
}
