import Foundation

/// A GrowthBook SDK payload (`GET /api/features/<clientKey>`): features, and
/// saved groups, decrypted when the server encrypts them.
public struct GrowthBookPayload: Sendable {
    /// Feature definitions by key, in payload order.
    public let features: [JSONValue.Member]
    /// Saved groups by id, for `$inGroup` and `$notInGroup`.
    public let savedGroups: [String: [JSONValue]]
    /// Contextual bandit definitions by reference, for rules with a `contextualBanditRef`.
    public let contextualBandits: [String: JSONValue]
    /// The features decoded once for evaluation: rules typed, conditions compiled.
    public let decodedFeatures: FeatureTable
    /// The contextual bandits decoded once for evaluation.
    public let decodedBandits: [String: ContextualBandit]
    /// Problems the SDK tolerates, found while the payload was checked.
    public let warnings: [Diagnostic]

    /// Why a payload was refused; the source keeps its last good one.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        /// Why, for a person: the problems, each with its feature and rule.
        public var description: String
        /// The problems found, when the payload parsed but failed its checks.
        public var diagnostics: [Diagnostic] = []
    }

    /// Parses and checks a payload; `decrypt` turns `encryptedFeatures` into
    /// features JSON. Every rule is checked (``PayloadLinter``): cleared as it
    /// is decoded, or else read by the checks once the features are, and
    /// nothing decoded is kept unless the checks pass, so a payload either
    /// loads whole or is refused with every problem named by feature and rule.
    public init(_ data: Data, decrypt: ((String) throws -> String)?) throws {
        try self.init(data, decrypt: decrypt, cores: nil)
    }

    /// ``init(_:decrypt:)`` decoding as on `cores` cores (by default those
    /// the calling thread may run on): tests take the one-core way on any
    /// machine, and `lab-bench growthbook` times it beside the usual way.
    package init(_ data: Data, decrypt: ((String) throws -> String)?, cores: Int?) throws {
        // The payload is parsed from the data's own bytes, and an ASCII one
        // (most are) is made a string only to say where a problem is: made
        // first, to check it as UTF-8, the string cost the parsing thread 0.3
        // million more instructions in a decode of 1,000 features than
        // checking for ASCII. Any other payload is checked as UTF-8 whole.
        let checked: String?
        if Self.isASCII(data) {
            checked = nil
        } else {
            guard let valid = String(data: data, encoding: .utf8) else {
                throw Invalid(description: "the payload is not UTF-8 text")
            }
            checked = valid
        }
        let text = { checked ?? String(decoding: data, as: UTF8.self) }
        // Features are decoded on other cores as soon as each is parsed; on
        // one core, once the parse is over, from its list of them.
        let streamed = FeatureStreamDecoder(cores: cores)
        let root: JSONValue
        do {
            root = try JSONValueParser.parse(
                data,
                streamingMembersOf: streamed.decodesWhileParsing ? "features" : nil,
                each: streamed.add
            )
        } catch {
            _ = streamed.finish()
            // Parsed again with positions, for the reason and the place.
            do {
                root = JSONValue(try JSONNodeParser.parse(text()))
            } catch {
                throw Invalid(description: "malformed payload JSON at \(error.position): \(error.message)")
            }
        }
        guard case .object = root else { throw Invalid(description: "the payload is not a JSON object") }
        var featuresValue = root["features"]
        var decrypted: String?
        if case .string(let encrypted)? = root["encryptedFeatures"] {
            guard let decrypt else {
                throw Invalid(
                    description: "the payload is encrypted and no decryption key was given (--decryption-key)"
                )
            }
            let plain: String
            do {
                plain = try decrypt(encrypted)
            } catch {
                throw Invalid(description: String(describing: error))
            }
            do {
                featuresValue = try JSONValue.parse(plain)
            } catch {
                throw Invalid(description: "decrypted features are not JSON: \(error.message)")
            }
            decrypted = plain
        }
        guard let featuresValue, case .object(let featureMembers) = featuresValue else {
            throw Invalid(description: "the payload has no \"features\" object")
        }
        // The checks read only the rules their decode did not clear
        // (`FeatureRule.needsChecks`), once every feature is decoded; the
        // decoding is thrown away when they find an error. They used to run
        // beside the decoding and read every rule again: 2.6 million
        // instructions of a decode of 1,000 features, where they now take 0.35.
        if decrypted == nil { streamed.placeKeys(of: featureMembers) }
        let finished = streamed.finish()
        let decoded: DecodedFeatures
        let table: FeatureTable
        if decrypted == nil, finished.decoded.features.count == featureMembers.count, let keys = finished.keys {
            decoded = finished.decoded
            table = FeatureTable(keys: keys, features: decoded.features)
        } else {
            // Decrypted features, and any on one core, are parsed whole, then decoded.
            decoded = streamed.decodeAfterParse(featureMembers)
            table = FeatureTable(
                keys: finished.keys ?? FeatureTable.Keys(keysOf: featureMembers),
                features: decoded.features
            )
        }
        let report = PayloadLinter().check(
            features: featuresValue,
            bandits: root["contextualBandits"],
            decoded: decoded
        ).forRuntime
        // Only a payload with problems is parsed again, to say where they are.
        let diagnostics = report.resolved(
            file: decrypted == nil ? "payload" : "decrypted features",
            text: text,
            decryptedFeatures: decrypted
        )
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let shown = errors.prefix(3).map(\.description).joined(separator: "; ")
            throw Invalid(
                description: "the payload was refused: " + shown
                    + (errors.count > 3 ? " (and \(errors.count - 3) more; PayloadLinter lists them all)" : ""),
                diagnostics: errors
            )
        }
        warnings = diagnostics
        features = featureMembers
        var groups: [String: [JSONValue]] = [:]
        for member in root["savedGroups"]?.members ?? [] { groups[member.key] = member.value.elements ?? [] }
        savedGroups = groups
        var bandits: [String: JSONValue] = [:]
        for member in root["contextualBandits"]?.members ?? [] where bandits[member.key] == nil {
            bandits[member.key] = member.value
        }
        contextualBandits = bandits
        decodedBandits = bandits.mapValues(ContextualBandit.init)
        decodedFeatures = table
    }

    /// Whether every byte is ASCII: 32 at a time, their high bits gathered
    /// in four words (a word at a time took three times the instructions).
    private static func isASCII(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var high: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var offset = 0
            while offset + 32 <= bytes.count {
                high.0 |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                high.1 |= base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                high.2 |= base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
                high.3 |= base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
                offset += 32
            }
            var rest = high.0 | high.1 | high.2 | high.3
            while offset < bytes.count {
                rest |= UInt64(bytes[offset])
                offset += 1
            }
            return rest & 0x8080_8080_8080_8080 == 0
        }
    }

    /// What GrowthBook evaluates this payload against for a user with these attributes.
    public func context(attributes: JSONValue) -> GrowthBookContext {
        GrowthBookContext(
            attributes: attributes,
            features: decodedFeatures,
            savedGroups: savedGroups,
            contextualBandits: decodedBandits
        )
    }
}
