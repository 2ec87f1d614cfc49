/// What can go wrong using a ``GrowthBookClient``.
public enum GrowthBookError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A payload was refused: it is not JSON, or a rule cannot be used (each named in `diagnostics`).
    case invalidPayload(String, diagnostics: [Diagnostic])
    /// A feature's value does not decode as the type asked for.
    case valueNotDecodable(feature: String, type: String, reason: String)
    /// The value given as attributes does not encode as a JSON object.
    case attributesNotAnObject(String)

    public var description: String {
        switch self {
        case .invalidPayload(let reason, _): return reason
        case .valueNotDecodable(let feature, let type, let reason):
            return "the value of feature \"\(feature)\" is not a \(type): \(reason)"
        case .attributesNotAnObject(let reason): return "attributes must encode as a JSON object: \(reason)"
        }
    }
}
