/// A Swift type a feature's JSON value can be read as: `String`, `Bool`,
/// `Int`, `Double` and `JSONValue` are; any `Decodable` type is read through
/// ``GrowthBookUser/value(for:as:)`` instead.
public protocol FeatureValue: Sendable {
    /// The value as this type; `nil` when the JSON is of another kind.
    init?(featureValue json: JSONValue)
    /// The value as JSON, for a typed experiment's variations.
    var featureValue: JSONValue { get }
}

extension String: FeatureValue {
    public init?(featureValue json: JSONValue) {
        guard case .string(let text) = json else { return nil }
        self = text
    }

    public var featureValue: JSONValue { .string(self) }
}

extension Bool: FeatureValue {
    public init?(featureValue json: JSONValue) {
        guard case .bool(let flag) = json else { return nil }
        self = flag
    }

    public var featureValue: JSONValue { .bool(self) }
}

extension Int: FeatureValue {
    /// Only a whole number a JavaScript number holds exactly (no fraction is dropped).
    public init?(featureValue json: JSONValue) {
        guard case .number(let number) = json, let whole = JavaScriptSemantics.integer(number) else { return nil }
        self = whole
    }

    public var featureValue: JSONValue { .number(Double(self)) }
}

extension Double: FeatureValue {
    public init?(featureValue json: JSONValue) {
        guard case .number(let number) = json else { return nil }
        self = number
    }

    public var featureValue: JSONValue { .number(self) }
}

extension JSONValue: FeatureValue {
    public init?(featureValue json: JSONValue) { self = json }
    public var featureValue: JSONValue { self }
}
