import Foundation
import Laboratory

/// The bodies the steering API takes and gives, as `share/openapi/steering-v1.json` describes them.
enum SteeringDocuments {
    /// `POST …/force`.
    struct Force: Decodable, Sendable {
        var experiment: String
        var variant: String
        var source: String?
        /// Attribute → value; absent or empty for everyone.
        var scope: [String: String]?
    }

    /// `POST …/unforce`.
    struct Unforce: Decodable, Sendable {
        var experiment: String
        var source: String?
        var scope: [String: String]?
    }

    /// `POST …/reset`: every forced variant, or those of a source, a scope, or both.
    struct Reset: Decodable, Sendable {
        var source: String?
        var scope: [String: String]?
    }

    /// `GET …/events`: the newest first, or those after an id oldest first.
    struct Events: Encodable {
        var events: [EventReport]
    }

    /// `GET …/attributes`: the attributes the server's device is evaluated
    /// with, and those an overrides import stored.
    struct Attributes: Encodable {
        var device: [String: String]
        var stored: [String: String]
    }

    /// Any refusal: `{"error": "…"}`.
    struct Failure: Encodable {
        var error: String
    }
}
