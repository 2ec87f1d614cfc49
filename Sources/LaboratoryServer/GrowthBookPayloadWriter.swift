import Foundation
import Laboratory

/// Writes the GrowthBook SDK payload that makes any GrowthBook SDK show what
/// the console shows: one feature per assignment key, its `defaultValue` the
/// baseline's, and, where an experiment gives the device a variant, one
/// experiment rule named after the experiment that puts every user in that
/// variant (all weight on it, coverage 1), so the SDK's tracking callback
/// still fires with Laboratory's experiment and variant names.
enum GrowthBookPayloadWriter {
    static func payload(flags: [ServedFlag], experiments: [String: Experiment], revision: Int64) -> Data {
        var features: [(String, Feature)] = []
        for flag in flags {
            let experiment = experiments[flag.experiment]
            let baseline = experiment?.variant(named: experiment?.baseline ?? "")
            var feature = Feature(defaultValue: baseline?.assignments[flag.key] ?? flag.value, rules: [])
            let served = flag.reason != .default && flag.reason != .disabled
            if served, let experiment, let index = experiment.variants.firstIndex(where: { $0.name == flag.variant }) {
                feature.rules.append(
                    Rule(
                        key: experiment.name,
                        variations: experiment.variants.map { $0.assignments[flag.key] ?? flag.value },
                        weights: experiment.variants.indices.map { $0 == index ? 1 : 0 },
                        meta: experiment.variants.map { Meta(key: $0.name, name: $0.name) },
                        bucketVersion: revision
                    )
                )
            } else if served {
                // A variant the catalog no longer names: its value, as a plain force.
                feature.defaultValue = flag.value
            }
            features.append((flag.key, feature))
        }
        let document = Document(features: features, dateUpdated: Date())
        let encoder = JSONEncoder()
        // Sorted: the same state gives the same bytes, and so the same ETag.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(document)) ?? Data(#"{"features":{}}"#.utf8)
    }

    private struct Document: Encodable {
        var features: [(String, Feature)]
        var dateUpdated: Date

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("features"))
            for (key, feature) in features { try nested.encode(feature, forKey: Key(key)) }
            try container.encode([String](), forKey: Key("experiments"))
            try container.encode(dateUpdated, forKey: Key("dateUpdated"))
        }
    }

    private struct Feature: Encodable {
        var defaultValue: AssignmentValue
        var rules: [Rule]
    }

    private struct Rule: Encodable {
        var key: String
        var variations: [AssignmentValue]
        var weights: [Double]
        var coverage = 1.0
        var hashAttribute = "id"
        var meta: [Meta]
        /// Raised with every change, minimum included: sticky buckets from before lose.
        var bucketVersion: Int64
        var minBucketVersion: Int64

        init(key: String, variations: [AssignmentValue], weights: [Double], meta: [Meta], bucketVersion: Int64) {
            self.key = key
            self.variations = variations
            self.weights = weights
            self.meta = meta
            self.bucketVersion = bucketVersion
            minBucketVersion = bucketVersion
        }
    }

    private struct Meta: Encodable {
        var key: String
        var name: String
    }
}
