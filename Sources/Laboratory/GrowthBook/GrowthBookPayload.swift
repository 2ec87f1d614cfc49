import Foundation

/// A GrowthBook SDK payload (`GET /api/features/<clientKey>`): features, and
/// saved groups, decrypted when the server encrypts them.
public struct GrowthBookPayload: Sendable {
    /// Feature definitions by key, in payload order.
    public var features: [JSONValue.Member]
    public var savedGroups: [String: [JSONValue]]

    /// Why a payload was refused; the source keeps its last good one.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Parses a payload; `decrypt` turns `encryptedFeatures` into features JSON.
    public init(_ data: Data, decrypt: ((String) throws -> String)?) throws {
        guard let text = String(data: data, encoding: .utf8) else {
            throw Invalid(description: "the payload is not UTF-8 text")
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(text)
        } catch {
            throw Invalid(description: "malformed payload JSON at \(error.position): \(error.message)")
        }
        guard case .object = root else { throw Invalid(description: "the payload is not a JSON object") }
        var featuresValue = root["features"]
        if let encrypted = root["encryptedFeatures"]?.stringValue {
            guard let decrypt else {
                throw Invalid(description: "the payload is encrypted and no decryption key was given (--decryption-key)")
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
        }
        guard let members = featuresValue?.members else {
            throw Invalid(description: "the payload has no \"features\" object")
        }
        features = members
        var groups: [String: [JSONValue]] = [:]
        for member in root["savedGroups"]?.members ?? [] { groups[member.key] = member.value.elements ?? [] }
        savedGroups = groups
    }

    /// The feature definitions as an evaluation context wants them.
    public var featureMap: [String: JSONValue] {
        var map: [String: JSONValue] = [:]
        for member in features where map[member.key] == nil { map[member.key] = member.value }
        return map
    }

    /// The experiment standing for a force or rollout rule, by feature and rule position.
    func ruleExperimentName(feature: String, rule index: Int) -> String? {
        ruleExperiments.first { $0.feature == feature && $0.index == index }?.experiment.name
    }

    /// Force and rollout rules as experiments of two variants, `Forced` (the
    /// rule's value) and `Default` (the feature's default, the baseline), so the
    /// console lists them as such and QA can force either.
    var ruleExperiments: [(feature: String, index: Int, experiment: Experiment)] {
        var result: [(String, Int, Experiment)] = []
        for member in features {
            var counts: [String: Int] = [:]
            for (index, rule) in (member.value["rules"]?.elements ?? []).enumerated() {
                guard let force = rule["force"] else { continue }
                let kind = rule["coverage"] != nil || rule["range"] != nil ? "rollout" : "force"
                counts[kind, default: 0] += 1
                let name = "\(member.key): \(kind)" + (counts[kind]! > 1 ? " \(counts[kind]!)" : "")
                let defaultValue = member.value["defaultValue"] ?? .null
                let experiment = Experiment(
                    name: name, keys: [member.key],
                    variants: [
                        Variant(name: "Default", assignments: [member.key: Self.assignmentValue(defaultValue)]),
                        Variant(name: "Forced", assignments: [member.key: Self.assignmentValue(force)]),
                    ],
                    baseline: "Default", bucketing: .hash)
                result.append((member.key, index, experiment))
            }
        }
        return result
    }

    /// Every experiment rule as a Laboratory experiment: name = the rule's
    /// key, variants named by `meta[].name`, `meta[].key` or index, each
    /// assigning every feature that runs the experiment its variation's value,
    /// baseline = variation 0. Rules of one key in several features merge.
    public var experiments: [Experiment] {
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
                let name = info?["name"]?.stringValue ?? info?["key"].map { JavaScript.string($0) } ?? String(index)
                var assignments: [String: AssignmentValue] = [:]
                for (feature, rule) in rules {
                    assignments[feature] = Self.assignmentValue(rule["variations"]!.elements![index])
                }
                let weights = rules[0].rule["weights"]?.elements?.compactMap(\.numberValue)
                return Variant(name: name, weight: weights.map { index < $0.count ? max($0[index], 0.000001) : 1 } ?? 1,
                               assignments: assignments)
            }
            return Experiment(
                name: key, keys: rules.map(\.feature), variants: Self.uniqueNames(variants),
                baseline: Self.uniqueNames(variants)[0].name, bucketing: .hash)
        }
    }

    /// Variation names must be unique within an experiment; repeats get their index.
    private static func uniqueNames(_ variants: [Variant]) -> [Variant] {
        var seen: Set<String> = []
        return variants.enumerated().map { index, variant in
            var variant = variant
            if !seen.insert(variant.name).inserted { variant.name += "#\(index)" }
            return variant
        }
    }

    /// A variation's value as an assignment: JSON objects and arrays as their text.
    static func assignmentValue(_ value: JSONValue) -> AssignmentValue {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        default: return .string(JavaScript.stringify(value) ?? "null")
        }
    }
}
