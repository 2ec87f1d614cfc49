import Foundation
import Laboratory

/// The bodies the steering API takes and gives, as `share/openapi/steering-v1.json`
/// describes them: the server reads the requests, `lab … --connect` writes them.
package enum SteeringDocuments {
    /// `POST …/force`.
    package struct Force: Codable, Sendable {
        package var experiment: String
        package var variant: String
        package var source: String?
        /// Attribute → value; absent or empty for everyone.
        package var scope: [String: String]?

        package init(experiment: String, variant: String, source: String?, scope: [String: String]?) {
            self.experiment = experiment
            self.variant = variant
            self.source = source
            self.scope = scope
        }
    }

    /// `POST …/unforce`.
    package struct Unforce: Codable, Sendable {
        package var experiment: String
        package var source: String?
        package var scope: [String: String]?

        package init(experiment: String, source: String?, scope: [String: String]?) {
            self.experiment = experiment
            self.source = source
            self.scope = scope
        }
    }

    /// `POST …/reset`: every forced variant, or those of a source, a scope, or both.
    package struct Reset: Codable, Sendable {
        package var source: String?
        package var scope: [String: String]?

        package init(source: String?, scope: [String: String]?) {
            self.source = source
            self.scope = scope
        }
    }

    /// `POST …/attributes`: store an attribute, or remove it with no value.
    package struct SetAttribute: Codable, Sendable {
        package var name: String
        package var value: String?

        package init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// `GET …/events`: the newest first, or those after an id oldest first.
    struct Events: Encodable {
        var events: [EventReport]
    }

    /// `GET …/attributes`: the attributes the server's device is evaluated
    /// with, those stored in the state file, and every attribute with where
    /// its value comes from and what reads it.
    struct Attributes: Encodable {
        var device: [String: String]
        var stored: [String: String]
        var list: [DeviceAttribute]
    }

    /// Any refusal: `{"error": "…"}`.
    struct Failure: Encodable {
        var error: String
    }
}
