/// What GrowthBook evaluates against: the user's attributes and the payload's
/// features, plus the overrides an SDK context can carry.
public struct GrowthBookContext: Sendable {
    public var attributes: JSONValue
    /// Feature key → feature definition (`defaultValue`, `rules`).
    public var features: [String: JSONValue]
    /// Experiment key → forced variation index.
    public var forcedVariations: [String: Int]
    public var savedGroups: [String: [JSONValue]]
    /// When `false`, no experiment runs.
    public var enabled: Bool
    /// In QA mode, experiments assign nobody (forced variations still apply).
    public var qaMode: Bool
    /// The page URL, whose query string can force a variation (`?my-test=1`).
    public var url: String?
    /// Contextual bandit definitions by reference.
    public var contextualBandits: [String: JSONValue]

    public init(
        attributes: JSONValue = .object([]),
        features: [String: JSONValue] = [:],
        forcedVariations: [String: Int] = [:],
        savedGroups: [String: [JSONValue]] = [:],
        enabled: Bool = true,
        qaMode: Bool = false,
        url: String? = nil,
        contextualBandits: [String: JSONValue] = [:]
    ) {
        self.attributes = attributes
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
        var features: [String: JSONValue] = [:]
        for member in json["features"]?.members ?? [] { features[member.key] = member.value }
        var forced: [String: Int] = [:]
        for member in json["forcedVariations"]?.members ?? [] {
            if let index = JavaScriptSemantics.integer(member.value.numberValue) { forced[member.key] = index }
        }
        var groups: [String: [JSONValue]] = [:]
        for member in json["savedGroups"]?.members ?? [] { groups[member.key] = member.value.elements ?? [] }
        var bandits: [String: JSONValue] = [:]
        for member in json["contextualBandits"]?.members ?? [] { bandits[member.key] = member.value }
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
