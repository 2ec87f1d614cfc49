import Foundation
import GrowthBook
import Synchronization

/// GrowthBook's remote evaluation (`POST /api/eval/{clientKey}`), as
/// GrowthBook's proxy answers it: an SDK configured with `remoteEval: true`
/// sends its user, and gets back the served payload evaluated for that user,
/// QA's forced variants included. Each feature that is on, or that an
/// experiment decided, becomes a feature whose default is its value; one an
/// experiment decided also carries a force rule whose `tracks` name the
/// experiment (its other variations emptied, its condition dropped) and the
/// result, so the SDK's tracking callback fires as it would have locally.
struct RemoteEvaluation {
    /// What an SDK sends (`attributes`, `forcedVariations`, `forcedFeatures`
    /// as `[key, value]` pairs, `url`); members it leaves out are empty.
    struct Request: Equatable {
        var attributes: JSONValue = .object([])
        var forcedVariations: [String: Int] = [:]
        /// Feature key → value, in the order sent (a later pair of one key wins).
        var forcedFeatures: [JSONValue.Member] = []
        var url: String?

        /// Why a body is not a remote evaluation request.
        struct Invalid: Error, Equatable {
            var reason: String
        }

        /// An anonymous user, nothing forced.
        init() {}

        /// Reads a request body; an empty body asks for an anonymous user.
        init(body: [UInt8]) throws(Invalid) {
            guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return }
            let json: JSONValue
            do {
                json = try JSONValueParser.parse(body)
            } catch {
                throw Invalid(reason: "the body is not JSON")
            }
            guard case .object = json else { throw Invalid(reason: "the body must be a JSON object") }
            if let attributes = json["attributes"], attributes != .null {
                guard case .object = attributes else { throw Invalid(reason: "\"attributes\" must be an object") }
                self.attributes = attributes
            }
            if let forced = json["forcedVariations"], forced != .null {
                guard let members = forced.members else {
                    throw Invalid(reason: "\"forcedVariations\" must be an object of variation indexes")
                }
                for member in members {
                    guard let index = JavaScriptSemantics.integer(member.value.numberValue) else {
                        throw Invalid(reason: "forced variation of \"\(member.key)\" must be a whole number")
                    }
                    forcedVariations[member.key] = index
                }
            }
            if let forced = json["forcedFeatures"], forced != .null {
                // A JavaScript `Map`'s entries: `[[key, value], …]`.
                guard let pairs = forced.elements else {
                    throw Invalid(reason: "\"forcedFeatures\" must be a list of [key, value] pairs")
                }
                for pair in pairs {
                    guard let items = pair.elements, items.count == 2, let key = items[0].stringValue else {
                        throw Invalid(reason: "\"forcedFeatures\" must be a list of [key, value] pairs")
                    }
                    forcedFeatures.append(.init(key, items[1]))
                }
            }
            if let url = json["url"], url != .null {
                guard let text = url.stringValue else { throw Invalid(reason: "\"url\" must be a string") }
                self.url = text
            }
        }
    }

    /// The answer to `request` from a payload: its `features` evaluated, no
    /// auto experiments, and its `dateUpdated`; saved groups and bandits stay
    /// on the server with the rest of the targeting.
    static func answer(_ request: Request, payload: GrowthBookPayload, dateUpdated: JSONValue?) -> JSONValue {
        var context = payload.context(attributes: request.attributes)
        context.forcedVariations = request.forcedVariations
        context.url = request.url
        // Forced in the evaluator, so a prerequisite on a forced feature sees the forced value too.
        context.forcedFeatures = Dictionary(
            request.forcedFeatures.map { ($0.key, $0.value) },
            uniquingKeysWith: { _, last in last }
        )
        var evaluator = GrowthBookEvaluator(context: context)
        var features: [JSONValue.Member] = []
        var answered: Set<String> = []
        for member in payload.features {
            let key = member.key
            // Each key once, as a JavaScript object holds it.
            guard answered.insert(key).inserted else { continue }
            let result = evaluator.evaluateFeature(key)
            guard result.on || result.experiment != nil else { continue }
            var feature: [JSONValue.Member] = [.init("defaultValue", result.value)]
            if result.source == .experiment, let experiment = result.experiment, let decided = result.experimentResult {
                let track = JSONValue.object([
                    .init("experiment", scrubbed(experiment, keeping: decided.variationId)),
                    .init("result", decided.json),
                ])
                feature.append(
                    .init("rules", .array([.object([.init("force", result.value), .init("tracks", .array([track]))])]))
                )
            }
            features.append(.init(key, .object(feature)))
        }
        var members: [JSONValue.Member] = [.init("features", .object(features)), .init("experiments", .array([]))]
        if let dateUpdated { members.append(.init("dateUpdated", dateUpdated)) }
        return .object(members)
    }

    /// The experiment as a remote answer shows it: the variation the user
    /// got, every other one `{}`, and no condition (targeting stays on the server).
    static func scrubbed(_ experiment: JSONValue, keeping index: Int) -> JSONValue {
        var members = experiment.members ?? []
        members.removeAll { $0.key == "condition" }
        if let at = members.firstIndex(where: { $0.key == "variations" }), let variations = members[at].value.elements {
            members[at].value = .array(
                variations.enumerated().map { $0.offset == index ? $0.element : .object([]) }
            )
        }
        return .object(members)
    }
}

/// The served payload decoded for remote evaluation, kept until the payload
/// changes: decoded on the first request after each change, not per request.
final class RemoteEvaluationCache: Sendable {
    private struct Decoded {
        var tag: String
        var payload: GrowthBookPayload
    }

    private let decoded = Mutex<Decoded?>(nil)

    /// The payload `state` serves, decoded.
    func payload(of state: ServedState) throws -> GrowthBookPayload {
        if let known = decoded.withLock({ $0 }), known.tag == state.payloadTag { return known.payload }
        let payload = try GrowthBookPayload(state.payload, decrypt: nil)
        decoded.withLock { $0 = Decoded(tag: state.payloadTag, payload: payload) }
        return payload
    }
}
