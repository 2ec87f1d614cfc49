/// Forced variants and attributes in a file, so a QA engineer can hand a
/// colleague a configuration that reproduces exactly.
///
/// ```json
/// {"version": 1, "attributes": {"userId": "qa-7"},
///  "requests": [{"source": "Local", "experiment": "ButtonColor", "variant": "ButtonColorBlue"},
///               {"source": "Local", "experiment": "ProfileRedesign", "variant": null}]}
/// ```
/// A `null` variant forces the experiment inactive.
public struct OverridesFile: Codable, Sendable, Hashable {
    public static let currentVersion = 1

    public var version: Int
    public var attributes: [String: String]
    public var requests: [DebugRequest]

    public init(attributes: [String: String] = [:], requests: [DebugRequest]) {
        version = Self.currentVersion
        self.attributes = attributes
        self.requests = requests
    }

    private enum CodingKeys: String, CodingKey {
        case version, attributes, requests
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        requests = try container.decode([DebugRequest].self, forKey: .requests)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(requests, forKey: .requests)
    }
}

/// Why an overrides file was not applied; nothing of it was.
public struct OverridesError: Error, CustomStringConvertible, Sendable {
    /// Every problem found, one per line.
    public var problems: [String]

    public var description: String {
        "the overrides were not applied:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension DebugSource {
    /// The current requests (stale ones included) and the stored attribute overrides.
    public func exportOverrides(attributes: [String: String]? = nil) throws -> OverridesFile {
        OverridesFile(attributes: try attributes ?? store.attributeOverrides(), requests: try store.debugRequests())
    }

    /// Checks every request against the loaded sources, then applies all of
    /// them, or none when one names an unknown source, experiment or variant.
    /// - Parameter replacing: drop the requests and attributes the file does not name.
    public func importOverrides(_ file: OverridesFile, replacing: Bool) throws {
        var problems: [String] = []
        if file.version != OverridesFile.currentVersion {
            problems.append("version \(file.version) is not one this program reads (\(OverridesFile.currentVersion))")
        }
        for request in file.requests {
            guard let source = sources.first(where: { $0.name == request.source }) else {
                problems.append("\(request.source)/\(request.experiment): no source named \"\(request.source)\"")
                continue
            }
            guard let experiment = source.experiment(named: request.experiment) else {
                problems.append("\(request.source)/\(request.experiment): no such experiment")
                continue
            }
            if let variant = request.variant, experiment.variant(named: variant) == nil {
                problems.append("\(request.source)/\(request.experiment): no variant \"\(variant)\"")
            }
        }
        guard problems.isEmpty else { throw OverridesError(problems: problems) }
        try store.applyDebugRequests(file.requests, replacing: replacing)
        var attributes = replacing ? [:] : try store.attributeOverrides()
        attributes.merge(file.attributes) { _, new in new }
        try store.setAttributeOverrides(attributes)
    }
}
