import Foundation

/// A GrowthBook SDK payload (`GET /api/features/<clientKey>`): features, and
/// saved groups, decrypted when the server encrypts them.
public struct GrowthBookPayload: Sendable {
    /// Feature definitions by key, in payload order.
    public let features: [JSONValue.Member]
    public let savedGroups: [String: [JSONValue]]
    /// Contextual bandit definitions by reference, for rules with a `contextualBanditRef`.
    public let contextualBandits: [String: JSONValue]
    /// The feature definitions as an evaluation context wants them.
    public let featureMap: [String: JSONValue]
    /// Every experiment rule as a Laboratory experiment, named after the rule's key.
    public let experiments: [Experiment]
    /// Force and rollout rules as experiments, with their feature and rule position.
    let ruleExperiments: [(feature: String, index: Int, experiment: Experiment)]
    /// Problems the SDK tolerates, found while the payload was checked.
    public let warnings: [Diagnostic]

    /// Why a payload was refused; the source keeps its last good one.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public var description: String
        /// The problems found, when the payload parsed but failed its checks.
        public var diagnostics: [Diagnostic] = []
    }

    /// Parses and checks a payload; `decrypt` turns `encryptedFeatures` into
    /// features JSON. Every rule is checked (``PayloadLinter``) before
    /// anything is built, so a payload either loads whole or is refused with
    /// every problem named by feature and rule.
    public init(_ data: Data, decrypt: ((String) throws -> String)?) throws {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Invalid(description: "the payload is not UTF-8 text")
        }
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            throw Invalid(description: "malformed payload JSON at \(error.position): \(error.message)")
        }
        guard case .object = root.kind else { throw Invalid(description: "the payload is not a JSON object") }
        var featuresNode = root[member: "features"]
        var file = "payload"
        if case .string(let encrypted)? = root[member: "encryptedFeatures"]?.kind {
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
                featuresNode = try JSONNodeParser.parse(plain)
            } catch {
                throw Invalid(description: "decrypted features are not JSON: \(error.message)")
            }
            file = "decrypted features"
        }
        guard let featuresNode, case .object = featuresNode.kind else {
            throw Invalid(description: "the payload has no \"features\" object")
        }
        let diagnostics = PayloadLinter().check(features: featuresNode, file: file)
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let shown = errors.prefix(3).map(\.description).joined(separator: "; ")
            throw Invalid(
                description: "the payload was refused: " + shown
                    + (errors.count > 3 ? " (and \(errors.count - 3) more; lab check --growthbook lists them)" : ""),
                diagnostics: errors
            )
        }
        warnings = diagnostics
        features = JSONValue(featuresNode).members ?? []
        var groups: [String: [JSONValue]] = [:]
        if case .object(let members)? = root[member: "savedGroups"]?.kind {
            for member in members { groups[member.name] = JSONValue(member.value).elements ?? [] }
        }
        savedGroups = groups
        var bandits: [String: JSONValue] = [:]
        if case .object(let members)? = root[member: "contextualBandits"]?.kind {
            for member in members where bandits[member.name] == nil { bandits[member.name] = JSONValue(member.value) }
        }
        contextualBandits = bandits
        var map: [String: JSONValue] = [:]
        for member in features where map[member.key] == nil { map[member.key] = member.value }
        featureMap = map
        experiments = Self.experimentRules(of: features)
        ruleExperiments = Self.forceAndRolloutRules(of: features)
        ruleExperimentIndex = Dictionary(
            ruleExperiments.map { ("\($0.feature)#\($0.index)", $0.experiment.name) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// What GrowthBook evaluates this payload against for a user with these attributes.
    public func context(attributes: JSONValue) -> GrowthBookContext {
        GrowthBookContext(
            attributes: attributes,
            features: featureMap,
            savedGroups: savedGroups,
            contextualBandits: contextualBandits
        )
    }

    /// Rule experiment names by `feature#rule`.
    private let ruleExperimentIndex: [String: String]

    /// The experiment standing for a force or rollout rule, by feature and rule position.
    func ruleExperimentName(feature: String, rule index: Int) -> String? {
        ruleExperimentIndex["\(feature)#\(index)"]
    }

    /// The variant of a force or rollout rule's experiment that stands for the feature's default value.
    public static let defaultVariant = "Default"
    /// The variant of a force or rollout rule's experiment that stands for the rule's value.
    public static let ruleVariant = "Forced"

    /// Force and rollout rules as experiments of two variants, `Forced` (the
    /// rule's value) and `Default` (the feature's default, the baseline), so the
    /// console lists them as such and QA can force either; their weights are
    /// the share of users the rule gives its value (all for a force rule).
    private static func forceAndRolloutRules(
        of features: [JSONValue.Member]
    ) -> [(feature: String, index: Int, experiment: Experiment)] {
        var result: [(String, Int, Experiment)] = []
        for member in features {
            var counts: [String: Int] = [:]
            for (index, rule) in (member.value["rules"]?.elements ?? []).enumerated() {
                guard let force = rule["force"] else { continue }
                let kind = rule["coverage"] != nil || rule["range"] != nil ? "rollout" : "force"
                counts[kind, default: 0] += 1
                let name = "\(member.key): \(kind)" + (counts[kind]! > 1 ? " \(counts[kind]!)" : "")
                let defaultValue = member.value["defaultValue"] ?? .null
                // The shares say what the rule does: everyone (a force), or a rollout's part of the users.
                var share = min(max(rule["coverage"]?.numberValue ?? 1, 0), 1)
                if let range = rule["range"]?.elements?.compactMap(\.numberValue), range.count == 2 {
                    share = min(max(range[1] - range[0], 0), 1)
                }
                let experiment = Experiment(
                    name: name,
                    keys: [member.key],
                    variants: [
                        Variant(
                            name: defaultVariant,
                            weight: 1 - share,
                            assignments: [member.key: Self.assignmentValue(defaultValue)]
                        ),
                        Variant(
                            name: ruleVariant,
                            weight: share,
                            assignments: [member.key: Self.assignmentValue(force)]
                        ),
                    ],
                    baseline: defaultVariant,
                    bucketing: .hash
                )
                result.append((member.key, index, experiment))
            }
        }
        return result
    }

    /// Every experiment rule as a Laboratory experiment: name = the rule's
    /// key, variants named by `meta[].name`, `meta[].key` or index, each
    /// assigning every feature that runs the experiment its variation's value,
    /// baseline = variation 0. Rules of one key in several features merge.
    private static func experimentRules(of features: [JSONValue.Member]) -> [Experiment] {
        var order: [String] = []
        var rulesByKey: [String: [(feature: String, rule: JSONValue)]] = [:]
        for member in features {
            for rule in member.value["rules"]?.elements ?? [] where rule["variations"]?.elements != nil {
                let key = rule["key"]?.stringValue ?? member.key
                if rulesByKey[key] == nil { order.append(key) }
                rulesByKey[key, default: []].append((member.key, rule))
            }
        }
        return order.compactMap { key -> Experiment? in
            let rules = rulesByKey[key]!
            let count = rules.map { $0.rule["variations"]!.elements!.count }.min() ?? 0
            guard count > 0 else { return nil }
            let meta = rules[0].rule["meta"]?.elements ?? []
            let variants = (0..<count).map { index -> Variant in
                let info = index < meta.count ? meta[index] : nil
                let name =
                    info?["name"]?.stringValue ?? info?["key"].map { JavaScriptSemantics.string($0) } ?? String(index)
                var assignments: [String: AssignmentValue] = [:]
                for (feature, rule) in rules {
                    assignments[feature] = Self.assignmentValue(rule["variations"]!.elements![index])
                }
                let weights = rules[0].rule["weights"]?.elements?.compactMap(\.numberValue)
                return Variant(
                    name: name,
                    weight: weights.map { index < $0.count ? max($0[index], 0.000001) : 1 } ?? 1,
                    assignments: assignments
                )
            }
            return Experiment(
                name: key,
                keys: rules.map(\.feature),
                variants: Self.uniqueNames(variants),
                baseline: Self.uniqueNames(variants)[0].name,
                bucketing: .hash
            )
        }
    }

    /// Variation names must be unique within an experiment; repeats get their index.
    private static func uniqueNames(_ variants: [Variant]) -> [Variant] {
        var seen: Set<String> = []
        return variants.enumerated().map { index, variant in
            var variant = variant
            var suffix = index
            while !seen.insert(variant.name).inserted {
                variant.name = variants[index].name + "#\(suffix)"
                suffix += 1
            }
            return variant
        }
    }

    /// A variation's value as an assignment: JSON objects and arrays as their text.
    static func assignmentValue(_ value: JSONValue) -> AssignmentValue {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        default: return .string(JavaScriptSemantics.stringify(value) ?? "null")
        }
    }
}
