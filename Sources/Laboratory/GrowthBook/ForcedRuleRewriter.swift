import Foundation
import GrowthBook

/// Writes a person's forced variants into a GrowthBook payload so that every
/// SDK gives every user the forced variant, and leaves every other rule as it
/// was, so targeting still holds for what nobody forced.
///
/// - An experiment rule forced to a variation becomes an experiment that puts
///   everyone in it (coverage 1, all weight on it, condition, prerequisites,
///   namespace, filters and ranges dropped), so the app's tracking callback
///   still fires with that variation. Its `bucketVersion` moves to one that
///   belongs to this forced variation alone, so a sticky bucket from before
///   does not win and one made now never leaks into another choice;
///   `minBucketVersion` stays, since raising it would *exclude* users who hold
///   an older sticky bucket instead of moving them.
/// - A force or rollout rule forced to `RuleValue` becomes a plain force of its
///   value; forced to `Default`, a plain force of the feature's default value.
/// - A forced rule moves to the front of its feature, as a forced variant wins
///   over the other experiments that assign the key; forcing `Inactive` removes
///   the rule.
/// - A forced experiment rule is followed by a force rule of the same value,
///   so an SDK that sets no hash attribute (no `id`) gets the forced value
///   too, as `lab assignments` shows it; one that does gets the experiment
///   rule first, and its tracking callback fires.
/// - A scoped forced variant (``Scope``) becomes the same rules with the
///   scope as their condition, ahead of everything else, the one that
///   precedes first; a scoped `Inactive` keeps its users out of the rules of
///   that experiment after it (`$not` the scope).
///
/// A forced variant the payload no longer has (a stale one) changes nothing.
public enum ForcedRuleRewriter {
    /// Members an experiment rule drops when forced: everything that could keep a user out.
    private static let exclusions: Set<String> = [
        "condition", "parentConditions", "namespace", "filters", "ranges", "range", "coverage", "weights",
        "bucketVersion", "savedGroups",
    ]

    static func rewrite(
        _ experiments: GrowthBookExperiments,
        source: String,
        forcing forcedVariants: [ForcedVariant],
        deviceAttributes: JSONValue
    ) -> SharedFeatures {
        var forced: [String: String?] = [:]
        var scoped: [String: [ForcedVariant]] = [:]
        for forcedVariant in forcedVariants where forcedVariant.source == source {
            if forcedVariant.scope.isEveryone {
                forced[forcedVariant.experiment] = forcedVariant.variant
            } else {
                scoped[forcedVariant.experiment, default: []].append(forcedVariant)
            }
        }
        for name in scoped.keys { scoped[name]!.sort { $0.precedes($1) } }
        var features: [JSONValue.Member] = []
        var origins: [String: [SharedFeatures.RuleOrigin?]] = [:]
        var written: Set<String> = []
        // A repeated feature key is written once, with the rules the evaluator
        // reads (the first's), so every SDK reads the feature as `lab` does.
        for member in experiments.payload.features where written.insert(member.key).inserted {
            // Scoped rules, with the forced variant each stands for, to be ordered by precedence.
            var scopedFront: [(rules: [JSONValue], origin: SharedFeatures.RuleOrigin, forced: ForcedVariant)] = []
            var front: [(JSONValue, SharedFeatures.RuleOrigin)] = []
            var rest: [(JSONValue, SharedFeatures.RuleOrigin?)] = []
            let feature = experiments.payload.decodedFeatures[member.key]
            let defaultValue = feature?.defaultValue ?? .null
            for (index, rule) in (feature?.rules ?? []).enumerated() {
                guard let experiment = experiments.experiment(at: RulePosition(feature: member.key, index: index))
                else {
                    rest.append((rule.json, nil))
                    continue
                }
                // Walked in precedence order: a scoped Inactive keeps its users out of what comes after it.
                var inactiveScopes: [Scope] = []
                for forcedVariant in scoped[experiment.name] ?? [] {
                    guard let variant = forcedVariant.variant else {
                        inactiveScopes.append(forcedVariant.scope)
                        continue
                    }
                    guard
                        let rewritten = rewritten(rule, to: variant, of: experiment, defaultValue: defaultValue)
                    else { continue }
                    let condition = Self.condition(forcedVariant.scope, excluding: inactiveScopes)
                    scopedFront.append(
                        (
                            rewritten.map { conditioned($0, condition, hashAttribute: forcedVariant.scope) },
                            SharedFeatures.RuleOrigin(experiment: experiment, forcedVariant: variant),
                            forcedVariant
                        )
                    )
                }
                guard let forcedVariant = forced[experiment.name] else {
                    rest.append(
                        (
                            excluding(rule.json, inactiveScopes),
                            SharedFeatures.RuleOrigin(experiment: experiment, forcedVariant: nil)
                        )
                    )
                    continue
                }
                guard let variant = forcedVariant else { continue }  // Inactive: the rule goes
                guard let rewritten = rewritten(rule, to: variant, of: experiment, defaultValue: defaultValue) else {
                    rest.append(
                        (
                            excluding(rule.json, inactiveScopes),
                            SharedFeatures.RuleOrigin(experiment: experiment, forcedVariant: nil)
                        )
                    )
                    continue
                }
                let origin = SharedFeatures.RuleOrigin(experiment: experiment, forcedVariant: variant)
                for written in rewritten { front.append((excluding(written, inactiveScopes), origin)) }
            }
            let ordered = scopedFront.enumerated().sorted {
                $0.element.forced.precedes($1.element.forced)
                    || (!$1.element.forced.precedes($0.element.forced) && $0.offset < $1.offset)
            }.map(\.element)
            var rules: [JSONValue] = []
            var ruleOrigins: [SharedFeatures.RuleOrigin?] = []
            for entry in ordered {
                rules += entry.rules
                ruleOrigins += entry.rules.map { _ in entry.origin }
            }
            rules += front.map(\.0) + rest.map(\.0)
            origins[member.key] = ruleOrigins + front.map(\.1) + rest.map(\.1)
            features.append(JSONValue.Member(member.key, replacing("rules", with: .array(rules), in: member.value)))
        }
        return SharedFeatures(
            source: source,
            features: features,
            savedGroups: experiments.payload.savedGroups,
            contextualBandits: experiments.payload.contextualBandits,
            deviceAttributes: deviceAttributes,
            origins: origins
        )
    }

    /// The rules that give everyone `variant`, or `nil` when the experiment
    /// has no such variant: a force rule's value, or an experiment rule with
    /// all weight on it followed by a force rule of its value (for SDKs that
    /// lack the hash attribute).
    private static func rewritten(
        _ rule: FeatureRule,
        to variant: String,
        of experiment: Experiment,
        defaultValue: JSONValue
    ) -> [JSONValue]? {
        let id = rule.id.isEmpty ? [] : [JSONValue.Member("id", .string(rule.id))]
        switch rule.kind {
        case .force(let forced), .rollout(let forced):
            switch variant {
            case GrowthBookExperiments.ruleVariant: return [.object(id + [JSONValue.Member("force", forced.value)])]
            case GrowthBookExperiments.defaultVariant:
                return [.object(id + [JSONValue.Member("force", defaultValue)])]
            default: return nil
            }
        case .experiment, .bandit, .ignored: break
        }
        guard let index = experiment.variants.firstIndex(where: { $0.name == variant }),
            let variations = rule.experiment?.variations, index < variations.count
        else { return nil }
        let count = variations.count
        // A bandit's rule becomes a plain experiment rule: its leaves' weights
        // would override the forced ones, and SDKs without bandits skip it.
        var members = (rule.json.members ?? []).filter {
            !exclusions.contains($0.key) && $0.key != "contextualBanditRef" && $0.key != "contextualVariations"
                && $0.key != "variations"
        }
        members.insert(JSONValue.Member("variations", .array(variations)), at: 0)
        members.append(JSONValue.Member("coverage", .number(1)))
        members.append(
            JSONValue.Member("weights", .array((0..<count).map { .number($0 == index ? 1 : 0) }))
        )
        members.append(
            JSONValue.Member(
                "bucketVersion",
                .number(Double(bucketVersion(experiment: experiment.name, variant: variant, index: index)))
            )
        )
        return [.object(members), .object([JSONValue.Member("force", variations[index])])]
    }

    /// A scope as a GrowthBook condition (each attribute equal to its
    /// value), with the users of `excluded` scopes kept out.
    public static func condition(_ scope: Scope, excluding excluded: [Scope] = []) -> JSONValue {
        let match = JSONValue.object(scope.sortedAttributes.map { JSONValue.Member($0.name, .string($0.value)) })
        guard !excluded.isEmpty else { return match }
        return .object([JSONValue.Member("$and", .array([match] + excluded.map(notIn)))])
    }

    /// `{"$not": scope}`: the users outside a scope.
    private static func notIn(_ scope: Scope) -> JSONValue {
        .object([JSONValue.Member("$not", condition(scope))])
    }

    /// `rule` for the users of a scope only: its condition replaced, and an
    /// experiment rule hashed on an attribute the scope has, so every user in
    /// the scope is bucketed (and tracked) whichever attributes the SDK sets.
    private static func conditioned(_ rule: JSONValue, _ condition: JSONValue, hashAttribute scope: Scope) -> JSONValue
    {
        var members = (rule.members ?? []).filter { $0.key != "condition" && $0.key != "hashAttribute" }
        members.append(JSONValue.Member("condition", condition))
        if rule["variations"] != nil, let attribute = scope.sortedAttributes.first {
            members.append(JSONValue.Member("hashAttribute", .string(attribute.name)))
            members.removeAll { $0.key == "fallbackAttribute" }
        }
        return .object(members)
    }

    /// `rule` with the users of `scopes` kept out, its own condition kept.
    private static func excluding(_ rule: JSONValue, _ scopes: [Scope]) -> JSONValue {
        guard !scopes.isEmpty else { return rule }
        var members = rule.members ?? []
        var parts = scopes.map(notIn)
        if let index = members.firstIndex(where: { $0.key == "condition" }) {
            parts.insert(members[index].value, at: 0)
            members.remove(at: index)
        }
        members.append(
            JSONValue.Member(
                "condition",
                parts.count == 1 ? parts[0] : .object([JSONValue.Member("$and", .array(parts))])
            )
        )
        return .object(members)
    }

    /// A bucket version that belongs to one forced variation of one experiment:
    /// in [2^30, 2^31), far above the small versions GrowthBook counts up,
    /// and the same every time the same variation is forced, so the payload
    /// does not change when nothing about it did.
    public static func bucketVersion(experiment: String, variant: String, index: Int) -> Int {
        // FNV-1a over the experiment, the variant and the index, with a zero byte after each of the first two.
        var hash: UInt32 = 0x811C_9DC5
        func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        }
        add(experiment.utf8)
        add(CollectionOfOne(0))
        add(variant.utf8)
        add(CollectionOfOne(0))
        add(String(index).utf8)
        return (1 << 30) + Int(hash % (1 << 30))
    }

    private static func replacing(_ key: String, with value: JSONValue, in object: JSONValue) -> JSONValue {
        var members = object.members ?? []
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONValue.Member(key, value))
        }
        return .object(members)
    }
}
