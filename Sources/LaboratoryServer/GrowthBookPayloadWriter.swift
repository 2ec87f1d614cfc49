import Foundation
import GrowthBook
import Laboratory

/// Writes the GrowthBook SDK payload that makes any GrowthBook SDK show what
/// the console shows.
///
/// - A source with ``SharedFeatures`` (a GrowthBook payload) passes its
///   features through, targeting kept and forced variants written in, so
///   every user of the app is evaluated as GrowthBook would.
/// - Every other key (a catalog's) is one feature whose `defaultValue` is the
///   baseline's and, where an experiment gives this device a variant, one
///   experiment rule named after the experiment that puts every user in that
///   variant (all weight on it, coverage 1), so the SDK's tracking callback
///   still fires with Laboratory's experiment and variant names.
enum GrowthBookPayloadWriter {
    /// The payload's `features`, `savedGroups` and `contextualBandits`: everything but the date.
    static func content(
        deviceFlags: [ServedFlag],
        experiments: [String: Experiment],
        shared: [SharedFeatures],
        passedThrough: Set<String>
    ) -> JSONValue {
        var features: [JSONValue.Member] = []
        for flag in deviceFlags {
            features.append(
                JSONValue.Member(flag.key, feature(for: flag, experiment: experiments[flag.experiment ?? ""]))
            )
        }
        var savedGroups: [JSONValue.Member] = []
        var bandits: [JSONValue.Member] = []
        for source in shared {
            features += source.features.filter { passedThrough.contains($0.key) }
            for (name, group) in source.savedGroups.sorted(by: { $0.key < $1.key }) {
                savedGroups.append(JSONValue.Member(name, .array(group)))
            }
            for (name, bandit) in source.contextualBandits.sorted(by: { $0.key < $1.key }) {
                bandits.append(JSONValue.Member(name, bandit))
            }
        }
        var members = [JSONValue.Member("features", .object(features)), JSONValue.Member("experiments", .array([]))]
        if !savedGroups.isEmpty { members.append(JSONValue.Member("savedGroups", .object(savedGroups))) }
        // Bandit rules pass through with the features; without these they would fall back to marginal weights.
        if !bandits.isEmpty { members.append(JSONValue.Member("contextualBandits", .object(bandits))) }
        return .object(members)
    }

    /// The whole payload: the content with its `dateUpdated`.
    static func payload(content: JSONValue, dateUpdated: Date) -> Data {
        var members = content.members ?? []
        let formatter = ISO8601DateFormatter()
        members.append(JSONValue.Member("dateUpdated", .string(formatter.string(from: dateUpdated))))
        return Data(JSONValue.object(members).jsonText.utf8)
    }

    /// One catalog key as a feature: the baseline's value, and this device's
    /// variant pinned for everyone.
    private static func feature(for flag: ServedFlag, experiment: Experiment?) -> JSONValue {
        let baseline = experiment?.variant(named: experiment?.baseline ?? "")
        var defaultValue = JSONValue(baseline?.assignments[flag.key] ?? flag.value)
        var rules: [JSONValue] = []
        let served = flag.reason != .default && flag.reason != .disabled
        if served, let experiment, let index = experiment.variants.firstIndex(where: { $0.name == flag.variant }) {
            rules.append(
                .object([
                    JSONValue.Member("key", .string(experiment.name)),
                    JSONValue.Member(
                        "variations",
                        .array(experiment.variants.map { JSONValue($0.assignments[flag.key] ?? flag.value) })
                    ),
                    JSONValue.Member(
                        "weights",
                        .array(experiment.variants.indices.map { .number($0 == index ? 1 : 0) })
                    ),
                    JSONValue.Member("coverage", .number(1)),
                    JSONValue.Member("hashAttribute", .string("id")),
                    JSONValue.Member(
                        "meta",
                        .array(
                            experiment.variants.map {
                                .object([
                                    JSONValue.Member("key", .string($0.name)),
                                    JSONValue.Member("name", .string($0.name)),
                                ])
                            }
                        )
                    ),
                    // A version of this variant alone: a sticky bucket from
                    // another choice does not win, and nobody is excluded.
                    JSONValue.Member(
                        "bucketVersion",
                        .number(
                            Double(
                                ForcedRuleRewriter.bucketVersion(
                                    experiment: experiment.name,
                                    variant: flag.variant,
                                    index: index
                                )
                            )
                        )
                    ),
                ])
            )
        } else if served {
            // A variant the catalog no longer names: its value, as a plain force.
            defaultValue = JSONValue(flag.value)
        }
        return .object([JSONValue.Member("defaultValue", defaultValue), JSONValue.Member("rules", .array(rules))])
    }
}
