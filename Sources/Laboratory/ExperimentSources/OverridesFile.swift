import Foundation
import GrowthBook

/// Forced variants and attributes in a file, so a QA engineer can hand a
/// colleague a configuration that reproduces exactly.
///
/// ```json
/// {"version": 2, "attributes": {"userId": "qa-7"},
///  "forcedVariants": [{"source": "Local", "experiment": "ButtonColor", "variant": "ButtonColorBlue"},
///                     {"source": "Local", "experiment": "ProfileRedesign", "variant": null,
///                      "scope": {"id": "qa-phone-7"}, "tester": "ana", "forcedAt": "2026-11-24T09:30:00.000Z"}]}
/// ```
/// A `null` variant forces the experiment inactive; `scope` (whom it applies
/// to, everyone when absent), `tester` and `forcedAt` are optional, so files
/// of earlier releases read as they did. Version 1 files, written by
/// releases up to 0.5, name the list `requests`; they are still read.
public struct OverridesFile: Codable, Sendable, Hashable {
    /// The version this release writes.
    public static let currentVersion = 2
    /// The versions this release reads.
    public static let readableVersions = 1...2

    /// The version the file was written in.
    public var version: Int
    /// Attributes to store (such as `userId`).
    public var attributes: [String: String]
    /// The forced variants, with their scopes.
    public var forcedVariants: [ForcedVariant]

    /// A file of the current version.
    public init(attributes: [String: String] = [:], forcedVariants: [ForcedVariant]) {
        version = Self.currentVersion
        self.attributes = attributes
        self.forcedVariants = forcedVariants
    }

    private enum CodingKeys: String, CodingKey {
        case version, attributes, forcedVariants
        /// What version 1 called the forced variants.
        case requests
    }

    /// The member that holds the forced variants in a file of `version`.
    static func listName(version: Int) -> String {
        version < 2 ? CodingKeys.requests.rawValue : CodingKeys.forcedVariants.rawValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        forcedVariants = try container.decode(
            [ForcedVariant].self,
            forKey: version < 2 ? .requests : .forcedVariants
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(forcedVariants, forKey: version < 2 ? .requests : .forcedVariants)
    }
}

extension OverridesFile {
    /// Why an overrides file could not be read, with where: `file:line:col: message`.
    public typealias Invalid = InvalidFile

    /// Reads an overrides file a person wrote or handed on: every mistake is
    /// named with its line and column, in plain words.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: how messages name the file.
    public init(decoding data: Data, file: String) throws(Invalid) {
        let root = try Invalid.json(data, file: file)
        func fail(_ node: JSONNode, _ message: String) -> Invalid {
            Invalid(file, at: node, message)
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
            attributes = try Invalid.stringObject(
                in: node,
                file: file,
                notAnObject: { "\"attributes\" must be an object of strings, found \($0)" },
                notAString: { "attribute \"\($0)\" must be a string, found \($1)" }
            )
        }
        let listName = Self.listName(version: version)
        guard let listNode = root[member: listName] else { throw fail(root, "missing \"\(listName)\"") }
        guard case .array(let elements) = listNode.kind else {
            throw fail(listNode, "\"\(listName)\" must be an array, found \(listNode.kindName)")
        }
        var forcedVariants: [ForcedVariant] = []
        for (index, element) in elements.enumerated() {
            let name = "forced variant \(index + 1)"
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
            var scope = Scope.everyone
            if let node = element[member: "scope"] {
                let attributes = try Invalid.stringObject(
                    in: node,
                    file: file,
                    notAnObject: { "\"scope\" of \(name) must be an object of strings, found \($0)" },
                    notAString: { "scope attribute \"\($0)\" of \(name) must be a string, found \($1)" }
                )
                do {
                    scope = try Scope(validating: attributes)
                } catch {
                    throw fail(node, "\"scope\" of \(name): \(error)")
                }
            }
            var tester: String?
            if let node = element[member: "tester"] {
                guard case .string(let value) = node.kind else {
                    throw fail(node, "\"tester\" of \(name) must be a string, found \(node.kindName)")
                }
                tester = value
            }
            var forcedAt: Date?
            if let node = element[member: "forcedAt"] {
                guard case .string(let text) = node.kind, let time = Timestamp.date(fromISO8601: text) else {
                    throw fail(node, "\"forcedAt\" of \(name) must be an ISO 8601 time (2026-11-24T09:30:00Z)")
                }
                forcedAt = time
            }
            forcedVariants.append(
                ForcedVariant(
                    source: try string("source"),
                    experiment: try string("experiment"),
                    variant: variant,
                    scope: scope,
                    tester: tester,
                    forcedAt: forcedAt
                )
            )
        }
        self.init(attributes: attributes, forcedVariants: forcedVariants)
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
    /// The current forced variants (stale ones included) and the stored attribute overrides.
    public func exportOverrides(attributes: [String: String]? = nil) throws -> OverridesFile {
        OverridesFile(
            attributes: try attributes ?? store.storedAttributes(),
            forcedVariants: try store.forcedVariants()
        )
    }

    /// Checks every forced variant against the loaded sources, then applies all of
    /// them, or none when one names an unknown source, experiment or variant.
    /// - Parameters:
    ///   - file: the overrides file, read.
    ///   - replacing: drop the forced variants and attributes the file does not name.
    public func importOverrides(_ file: OverridesFile, replacing: Bool) throws {
        var problems: [String] = []
        if !OverridesFile.readableVersions.contains(file.version) {
            let readable = OverridesFile.readableVersions
            problems.append(
                "version \(file.version) is not one this program reads (\(readable.lowerBound) to \(readable.upperBound))"
            )
        }
        for forcedVariant in file.forcedVariants {
            guard let source = sources.first(where: { $0.name == forcedVariant.source }) else {
                problems.append(
                    "\(forcedVariant.experimentID): no source named \"\(forcedVariant.source)\""
                )
                continue
            }
            guard let experiment = source.experiment(named: forcedVariant.experiment) else {
                problems.append("\(forcedVariant.experimentID): no such experiment")
                continue
            }
            if let variant = forcedVariant.variant, experiment.variant(named: variant) == nil {
                problems.append("\(forcedVariant.experimentID): no variant \"\(variant)\"")
            }
        }
        guard problems.isEmpty else { throw OverridesError(problems: problems) }
        try store.applyForcedVariants(file.forcedVariants, replacing: replacing)
        var attributes = replacing ? [:] : try store.storedAttributes()
        attributes.merge(file.attributes) { _, new in new }
        // The sources take them at the next refresh, as every process that opens the state file does.
        try store.setStoredAttributes(attributes)
    }
}
