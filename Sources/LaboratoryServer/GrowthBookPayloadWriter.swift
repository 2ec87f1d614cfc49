import Foundation
import GrowthBook
import Laboratory
import NIOCore

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
///   still fires with Laboratory's experiment and variant names, followed by
///   a force rule of the same value for SDKs that set no `id`.
/// - A scoped forced variant of a catalog experiment becomes the same pair
///   of rules conditioned on its scope (hashed on one of its attributes),
///   ahead of the rest; a scoped `Inactive` a force rule of the baseline's value.
enum GrowthBookPayloadWriter {
    /// The features member that carries `featureText` under `key`: what
    /// the payload's `features` object holds for one key.
    static func member(key: String, featureText: String) -> String {
        JSONValue.string(key).jsonText + ":" + featureText
    }

    /// The features `shared` passes through (those `passesThrough` names),
    /// each as a member of the `features` object, source by source.
    static func passedThroughMembers(_ shared: [SharedFeatures], passesThrough: (String) -> Bool) -> [String] {
        shared.flatMap { source in
            source.features.filter { passesThrough($0.key) }.map { member(key: $0.key, featureText: $0.value.jsonText) }
        }
    }

    /// What follows the `features` object's members: its closing brace,
    /// `experiments` (none), then the shared sources' saved groups and
    /// bandits; the payload's own closing brace is not in it.
    static func tail(_ shared: [SharedFeatures]) -> String {
        var savedGroups: [JSONValue.Member] = []
        var bandits: [JSONValue.Member] = []
        for source in shared {
            for (name, group) in source.savedGroups.sorted(by: { $0.key < $1.key }) {
                savedGroups.append(JSONValue.Member(name, .array(group)))
            }
            for (name, bandit) in source.contextualBandits.sorted(by: { $0.key < $1.key }) {
                bandits.append(JSONValue.Member(name, bandit))
            }
        }
        var text = #"},"experiments":[]"#
        if !savedGroups.isEmpty { text += #","savedGroups":"# + JSONValue.object(savedGroups).jsonText }
        // Bandit rules pass through with the features; without these they would fall back to marginal weights.
        if !bandits.isEmpty { text += #","contextualBandits":"# + JSONValue.object(bandits).jsonText }
        return text
    }

    /// The `features` server-sent event with the whole payload inside:
    /// `{"features":{` the members, comma-separated, then `tail` and
    /// `dateUpdated` as the last member. Written once into one buffer, which
    /// every stream shares; it says where the payload lies in it, and where
    /// each of `members` starts.
    ///
    /// With the event the previous state wrote and where its members started,
    /// the members `unchanged` says are the same are copied from it a run at a
    /// time instead of written one by one: a force among 20,000 features
    /// writes a handful and copies the rest in a few runs.
    static func featuresEvent(
        members: [String],
        more: [String],
        tail: String,
        dateUpdated: String,
        reusing previous: FeaturesEvent? = nil,
        unchanged: (Int) -> Bool = { _ in false }
    ) -> FeaturesEvent {
        let prefix = "event: features\ndata: "
        let date = #","dateUpdated":"# + JSONValue.string(dateUpdated).jsonText + "}"
        var size = prefix.utf8.count + 16 + tail.utf8.count + date.utf8.count + 2
        for member in members { size += member.utf8.count + 1 }
        for member in more { size += member.utf8.count + 1 }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(size)
        buffer.writeString(prefix)
        let start = buffer.writerIndex
        buffer.writeString(#"{"features":{"#)
        var memberStarts: [Int] = []
        memberStarts.reserveCapacity(members.count)
        let reusable = previous.flatMap { $0.memberStarts.count == members.count ? $0 : nil }
        var index = 0
        while index < members.count {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            guard let reusable, unchanged(index) else {
                memberStarts.append(buffer.writerIndex)
                buffer.writeString(members[index])
                index += 1
                continue
            }
            // A run of unchanged members, their commas between them, in one copy.
            var last = index
            while last + 1 < members.count && unchanged(last + 1) { last += 1 }
            let from = reusable.memberStarts[index]
            let to = reusable.memberStarts[last] + members[last].utf8.count
            let offset = buffer.writerIndex - from
            for member in index...last { memberStarts.append(reusable.memberStarts[member] + offset) }
            var run = reusable.event.getSlice(at: from, length: to - from)!
            buffer.writeBuffer(&run)
            index = last + 1
        }
        var written = members.count
        for member in more {
            if written > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeString(member)
            written += 1
        }
        buffer.writeString(tail)
        buffer.writeString(date)
        let end = buffer.writerIndex
        buffer.writeString("\n\n")
        return FeaturesEvent(event: buffer, payload: start..<end, memberStarts: memberStarts)
    }

    /// A `features` event, where its payload is, and where each device member starts in it.
    struct FeaturesEvent: Sendable {
        var event: ByteBuffer
        var payload: Range<Int>
        var memberStarts: [Int]
    }

    /// One device flag's feature as JSON text: its baseline as the default,
    /// rules for the scoped forced variants, then the device's own variant.
    static func featureText(for flag: ServedFlag, experiment: Experiment?, scoped: [ScopedChoice]) -> String {
        feature(for: flag, experiment: experiment, scoped: scoped).jsonText
    }

    /// The `id` of the rules that give a forced variant: an SDK reports it as
    /// the result's `ruleId`, so an app (the demo page) can say "forced by QA".
    package static let forcedRuleID = "laboratory-forced"

    /// A scoped forced variant of a catalog experiment, with the experiment.
    struct ScopedChoice: Sendable, Equatable {
        var forcedVariant: ForcedVariant
        var experiment: Experiment
    }

    /// One catalog key as a feature: the baseline's value, the scoped forced
    /// variants first, and this device's variant pinned for everyone.
    private static func feature(for flag: ServedFlag, experiment: Experiment?, scoped: [ScopedChoice]) -> JSONValue {
        let baseline = experiment?.variant(named: experiment?.baseline ?? "")
        var defaultValue = JSONValue(baseline?.assignments[flag.key] ?? flag.value)
        var rules: [JSONValue] = []
        for choice in scoped {
            let condition = ForcedRuleRewriter.condition(choice.forcedVariant.scope)
            let hashAttribute = choice.forcedVariant.scope.sortedAttributes.first?.name ?? "id"
            let chosen = choice.experiment
            guard let name = choice.forcedVariant.variant else {
                // Inactive for these users: the baseline, and no experiment to track.
                let value = chosen.variant(named: chosen.baseline)?.assignments[flag.key] ?? flag.value
                rules.append(forceRule(JSONValue(value), condition: condition, forced: true))
                continue
            }
            guard let index = chosen.variants.firstIndex(where: { $0.name == name }),
                let value = chosen.variants[index].assignments[flag.key]
            else { continue }
            rules.append(
                pinnedRule(
                    chosen,
                    key: flag.key,
                    index: index,
                    condition: condition,
                    hashAttribute: hashAttribute,
                    forced: true
                )
            )
            rules.append(forceRule(JSONValue(value), condition: condition, forced: true))
        }
        let served = flag.reason != .default && flag.reason != .disabled
        if served, let experiment, let index = experiment.variants.firstIndex(where: { $0.name == flag.variant }) {
            rules.append(
                pinnedRule(
                    experiment,
                    key: flag.key,
                    index: index,
                    condition: nil,
                    hashAttribute: "id",
                    forced: flag.forced
                )
            )
            rules.append(forceRule(JSONValue(flag.value), condition: nil, forced: flag.forced))
        } else if served {
            // A variant the catalog no longer names: its value, as a plain force.
            defaultValue = JSONValue(flag.value)
        }
        return .object([JSONValue.Member("defaultValue", defaultValue), JSONValue.Member("rules", .array(rules))])
    }

    /// A force rule: everyone (in `condition`) gets `value`; nothing is tracked.
    private static func forceRule(_ value: JSONValue, condition: JSONValue?, forced: Bool) -> JSONValue {
        .object(
            (forced ? [JSONValue.Member("id", .string(forcedRuleID))] : [])
                + (condition.map { [JSONValue.Member("condition", $0)] } ?? []) + [JSONValue.Member("force", value)]
        )
    }

    /// An experiment rule named after the experiment that puts every user
    /// (in `condition`) in variant `index`, so the SDK's tracking callback
    /// fires with Laboratory's names.
    private static func pinnedRule(
        _ experiment: Experiment,
        key: String,
        index: Int,
        condition: JSONValue?,
        hashAttribute: String,
        forced: Bool
    ) -> JSONValue {
        let fallback = experiment.variants[index].assignments[key] ?? .string("")
        var members = [
            JSONValue.Member("key", .string(experiment.name)),
            JSONValue.Member(
                "variations",
                .array(experiment.variants.map { JSONValue($0.assignments[key] ?? fallback) })
            ),
            JSONValue.Member("weights", .array(experiment.variants.indices.map { .number($0 == index ? 1 : 0) })),
            JSONValue.Member("coverage", .number(1)),
            JSONValue.Member("hashAttribute", .string(hashAttribute)),
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
                            variant: experiment.variants[index].name,
                            index: index
                        )
                    )
                )
            ),
        ]
        if let condition { members.insert(JSONValue.Member("condition", condition), at: 1) }
        if forced { members.insert(JSONValue.Member("id", .string(forcedRuleID)), at: 0) }
        return .object(members)
    }
}
