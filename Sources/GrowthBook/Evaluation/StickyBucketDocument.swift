/// One user's sticky bucket assignments for one hash attribute value
/// (GrowthBook's `StickyAssignmentsDocument`), indexed so that a lookup and
/// an update cost the same whatever the number of experiments.
struct StickyBucketDocument: Sendable, Hashable {
    var attributeName: String
    var attributeValue: String
    /// `<experiment>__<bucketVersion>` → variation key.
    private(set) var assignments: [String: String] = [:]
    /// Assignment keys in the order they were first set, so the JSON is stable.
    private var order: [String] = []
    /// Experiment → the whole versions it has buckets of, for the blocked check.
    private var versions: [String: [Double]] = [:]

    init(attributeName: String, attributeValue: String) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
    }

    /// Reads a document in GrowthBook's JSON shape; `nil` when it is not one.
    init?(json: JSONValue) {
        guard let name = json["attributeName"]?.stringValue, let value = json["attributeValue"] else { return nil }
        self.init(attributeName: name, attributeValue: JavaScriptSemantics.string(value))
        for member in json["assignments"]?.members ?? [] { set(member.key, JavaScriptSemantics.string(member.value)) }
    }

    /// The key under which an experiment's bucket of one version is kept:
    /// `${key}__${bucketVersion}` as JavaScript prints it.
    static func key(experiment: String, version: JSONValue?) -> String {
        let version = version.flatMap { JavaScriptSemantics.truthy($0) ? $0 : nil } ?? .number(0)
        return experiment + "__" + JavaScriptSemantics.string(version)
    }

    subscript(key: String) -> String? { assignments[key] }

    mutating func set(_ key: String, _ variation: String) {
        guard assignments.updateValue(variation, forKey: key) == nil else { return }
        order.append(key)
        // The version is the digits after the last "__"; only what `String(i)`
        // prints for a whole i ≥ 0 counts: no leading zero.
        let digitCount = key.reversed().prefix { $0 >= "0" && $0 <= "9" }.count
        let suffix = key.suffix(digitCount)
        let head = key.dropLast(digitCount)
        guard digitCount > 0, head.hasSuffix("__"), suffix == "0" || !suffix.hasPrefix("0"),
            let version = Double(suffix)
        else { return }
        versions[String(head.dropLast(2)), default: []].append(version)
    }

    /// Whether the document holds a bucket of `experiment` from a version
    /// below `minimum` (whole versions 0, 1, … as the SDK counts them). Looks
    /// only at the stored versions, so a huge minimum costs nothing more.
    func holdsBlockedVersion(of experiment: String, below minimum: Double) -> Bool {
        (versions[experiment] ?? []).contains { $0 < minimum }
    }

    /// The document in GrowthBook's JSON shape.
    var json: JSONValue {
        .object([
            .init("attributeName", .string(attributeName)),
            .init("attributeValue", .string(attributeValue)),
            .init("assignments", .object(order.map { .init($0, .string(assignments[$0]!)) })),
        ])
    }
}
