import Foundation
import GrowthBook
import Laboratory

/// One exposure an app posts to `/events/{clientKey}`: what a GrowthBook
/// tracking callback or an OpenFeature hook has at hand.
struct PostedEvent: Decodable {
    var experiment: String
    var variant: String
    var key: String?
    var value: AssignmentValue?
    var reason: String?
    var device: String?
    /// The user's attributes, as the SDK has them (an object): say whose
    /// exposure it is, so one of a variant forced for that user's scope is
    /// marked forced. Numbers and booleans compare as their text.
    var attributes: JSONValue?

    /// Why a posted body was refused; nothing of it was stored.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads and checks a whole body: a JSON array of events, each naming an
    /// experiment and variant the state file knows by any name an SDK
    /// reports for it: the variant's name, its `meta` key (GrowthBook's
    /// `result.key`, in `aliases`), or its index. An exposure of a variant
    /// QA forced for that user (by its `attributes`; without them, for this
    /// device) is marked forced, with the tester: it is not experiment data.
    static func events(
        in body: Data,
        experiments: [String: (source: String, experiment: Experiment)],
        aliases: [String: [String: String]] = [:],
        forcing: [String: DebugEntry] = [:],
        device: String,
        at time: Date
    ) throws(Invalid) -> [Event] {
        let posted: [PostedEvent]
        do {
            posted = try JSONDecoder().decode([PostedEvent].self, from: body)
        } catch let error as DecodingError {
            throw Invalid(
                description:
                    "the body must be a JSON array of {experiment, variant, key?, value?, reason?, device?, attributes?}: "
                    + Self.describe(error)
            )
        } catch {
            throw Invalid(description: "the body is not JSON")
        }
        var events: [Event] = []
        for (index, event) in posted.enumerated() {
            let place = "event \(index + 1)"
            guard let (source, experiment) = experiments[event.experiment] else {
                throw Invalid(description: "\(place): no experiment named \"\(event.experiment)\"")
            }
            let variant =
                experiment.variant(named: event.variant)
                ?? aliases[experiment.name]?[event.variant].flatMap(experiment.variant(named:))
                ?? Int(event.variant).flatMap {
                    experiment.variants.indices.contains($0) ? experiment.variants[$0] : nil
                }
            guard let variant else {
                throw Invalid(
                    description: "\(place): experiment \"\(experiment.name)\" has no variant \"\(event.variant)\""
                )
            }
            let key = event.key ?? experiment.keys[0]
            guard experiment.keys.contains(key) else {
                throw Invalid(description: "\(place): experiment \"\(experiment.name)\" has no key \"\(key)\"")
            }
            if let value = event.value, let assigned = variant.assignments[key], value != assigned {
                // A value the variant does not assign is an exposure of something else: counted, it would skew the analysis.
                throw Invalid(
                    description: value.kind != assigned.kind
                        ? "\(place): \"value\" is \(value.kind), but experiment \"\(experiment.name)\" assigns \"\(key)\" \(assigned.kind)"
                        : "\(place): \"value\" is \(value), but variant \"\(variant.name)\" of \"\(experiment.name)\" assigns \"\(key)\" = \(assigned)"
                )
            }
            let reason: EventReason
            do {
                reason = try event.reason.map(EventReason.init(checking:)) ?? .displayed
            } catch {
                throw Invalid(description: "\(place): \(error)")
            }
            var attributes: [String: String]?
            if let given = event.attributes {
                guard let members = given.members else {
                    throw Invalid(description: "\(place): \"attributes\" must be an object, found \(given.kindName)")
                }
                attributes = Scope.comparable(members)
            }
            let forced = forcing[experiment.name]?.forcedVariant(for: attributes)
            events.append(
                Event(
                    time: time,
                    device: event.device ?? device,
                    source: source,
                    experiment: experiment.name,
                    variant: variant.name,
                    key: key,
                    value: event.value ?? variant.assignments[key] ?? .string(""),
                    reason: reason,
                    forced: forced != nil,
                    tester: forced?.tester
                )
            )
        }
        return events
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension AssignmentValue {
    /// The kind of value, in words: a posted value must be of the kind its key is assigned.
    fileprivate var kind: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .json: return "JSON (an object, an array or null)"
        }
    }
}
