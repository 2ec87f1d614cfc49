import Foundation

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

extension OverridesFile {
    /// Why an overrides file could not be read, with where: `file:line:col: message`.
    public struct Invalid: Error, CustomStringConvertible, Sendable, Equatable {
        public var file: String
        public var position: SourcePosition?
        public var message: String

        public var description: String {
            "\(file)\(position.map { ":\($0.line):\($0.column)" } ?? ""): \(message)"
        }
    }

    /// Reads an overrides file a person wrote or handed on: every mistake is
    /// named with its line and column, in plain words.
    /// - Parameter file: how messages name the file.
    public init(decoding data: Data, file: String) throws(Invalid) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Invalid(file: file, message: "not UTF-8 text")
        }
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            throw Invalid(file: file, position: error.position, message: error.message)
        }
        func fail(_ node: JSONNode, _ message: String) -> Invalid {
            Invalid(file: file, position: node.position, message: message)
        }
        guard case .object = root.kind else { throw fail(root, "expected an object, found \(root.kindName)") }
        guard let versionNode = root[member: "version"] else {
            throw fail(root, "missing \"version\" (this program writes \(Self.currentVersion))")
        }
        guard case .number(let number) = versionNode.kind, let version = Int(exactly: number) else {
            throw fail(versionNode, "\"version\" must be a whole number, found \(versionNode.kindName)")
        }
        var attributes: [String: String] = [:]
        if let node = root[member: "attributes"] {
            guard case .object(let members) = node.kind else {
                throw fail(node, "\"attributes\" must be an object of strings, found \(node.kindName)")
            }
            for member in members {
                guard case .string(let value) = member.value.kind else {
                    throw fail(
                        member.value,
                        "attribute \"\(member.name)\" must be a string, found \(member.value.kindName)"
                    )
                }
                attributes[member.name] = value
            }
        }
        guard let requestsNode = root[member: "requests"] else { throw fail(root, "missing \"requests\"") }
        guard case .array(let elements) = requestsNode.kind else {
            throw fail(requestsNode, "\"requests\" must be an array, found \(requestsNode.kindName)")
        }
        var requests: [DebugRequest] = []
        for (index, element) in elements.enumerated() {
            let name = "request \(index + 1)"
            guard case .object = element.kind else {
                throw fail(element, "\(name) must be an object, found \(element.kindName)")
            }
            func string(_ key: String) throws(Invalid) -> String {
                guard let node = element[member: key] else { throw fail(element, "\(name) has no \"\(key)\"") }
                guard case .string(let value) = node.kind else {
                    throw fail(node, "\"\(key)\" of \(name) must be a string, found \(node.kindName)")
                }
                return value
            }
            let variant: String?
            switch element[member: "variant"]?.kind {
            case .string(let value)?: variant = value
            case .null?, nil: variant = nil
            case _?:
                let node = element[member: "variant"]!
                throw fail(
                    node,
                    "\"variant\" of \(name) must be a string, or null for Inactive; found \(node.kindName)"
                )
            }
            requests.append(
                DebugRequest(source: try string("source"), experiment: try string("experiment"), variant: variant)
            )
        }
        self.init(attributes: attributes, requests: requests)
        self.version = version
    }

    /// The file as `lab overrides export` and the console write it: pretty, sorted, ending in a newline.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data("{}".utf8)) + Data("\n".utf8)
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
        // The sources take the attributes now (a user id makes user-level experiments run).
        useAttributes(attributes)
    }
}
