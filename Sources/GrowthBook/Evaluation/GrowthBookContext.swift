/// What GrowthBook evaluates against: the user's attributes and the payload's
/// features, plus the overrides an SDK context can carry.
public struct GrowthBookContext: Sendable {
    /// The user's attributes, a JSON object.
    public var attributes: JSONValue {
        // Read as `JSON.parse` builds them, once: lookups then take the first member of a name.
        didSet {
            attributes = JavaScriptSemantics.asParsed(attributes)
            attributeTable = AttributeTable(attributes)
        }
    }
    /// The attributes indexed for conditions, made again whenever they are set.
    package private(set) var attributeTable: AttributeTable
    /// Feature key → feature, decoded (``GrowthBookFeature/index(_:)``).
    public var features: FeatureTable
    /// Experiment key → forced variation index.
    public var forcedVariations: [String: Int]
    /// Saved groups by id, for `$inGroup` and `$notInGroup`.
    public var savedGroups: [String: [JSONValue]]
    /// When `false`, no experiment runs.
    public var enabled: Bool
    /// In QA mode, experiments assign nobody (forced variations still apply).
    public var qaMode: Bool
    /// The page URL, whose query string can force a variation (`?my-test=1`).
    public var url: String?
    /// Contextual bandits by reference, decoded.
    public var contextualBandits: [String: ContextualBandit]
    /// Feature key → the value it takes whatever its rules say (GrowthBook's
    /// `forcedFeatures`; the result's source is `override`).
    public var forcedFeatures: [String: JSONValue] = [:]

    /// A context; everything but the attributes and features has the SDK's default.
    public init(
        attributes: JSONValue = .object([]),
        features: FeatureTable = FeatureTable(),
        forcedVariations: [String: Int] = [:],
        savedGroups: [String: [JSONValue]] = [:],
        enabled: Bool = true,
        qaMode: Bool = false,
        url: String? = nil,
        contextualBandits: [String: ContextualBandit] = [:]
    ) {
        let parsed = JavaScriptSemantics.asParsed(attributes)
        self.attributes = parsed
        attributeTable = AttributeTable(parsed)
        self.features = features
        self.forcedVariations = forcedVariations
        self.savedGroups = savedGroups
        self.enabled = enabled
        self.qaMode = qaMode
        self.url = url
        self.contextualBandits = contextualBandits
    }

    /// Reads an SDK context in GrowthBook's JSON shape.
    public init(json: JSONValue) {
        let features = GrowthBookFeature.index(json["features"]?.members ?? [])
        var forced: [String: Int] = [:]
        for member in json["forcedVariations"]?.members ?? [] {
            if let index = JavaScriptSemantics.integer(member.value.numberValue) { forced[member.key] = index }
        }
        var groups: [String: [JSONValue]] = [:]
        for member in json["savedGroups"]?.members ?? [] { groups[member.key] = member.value.elements ?? [] }
        let bandits = ContextualBandit.index(json["contextualBandits"]?.members ?? [])
        self.init(
            attributes: json["attributes"] ?? .object([]),
            features: features,
            forcedVariations: forced,
            savedGroups: groups,
            enabled: json["enabled"]?.boolValue ?? true,
            qaMode: json["qaMode"]?.boolValue ?? false,
            url: json["url"]?.stringValue,
            contextualBandits: bandits
        )
    }
}
