import GrowthBook

/// Where an experiment and its parts are in its catalog file, for diagnostics
/// about a catalog that decoded (conventions, overlaps).
public struct ExperimentLocation: Sendable, Hashable {
    /// Where the experiment's object begins.
    public var position: SourcePosition
    /// Each key's string in `"keys"`.
    public var keys: [String: SourcePosition]
    /// Each variant's object.
    public var variants: [String: SourcePosition]
    /// Each variant's `"weight"`, where given.
    public var weights: [String: SourcePosition]
    /// The `"activeTokenRange"` array, if any.
    public var range: SourcePosition?

    init(_ node: JSONNode) {
        position = node.position
        keys = [:]
        variants = [:]
        weights = [:]
        if case .array(let elements)? = node[member: "keys"]?.kind {
            for element in elements {
                if case .string(let key) = element.kind, keys[key] == nil { keys[key] = element.position }
            }
        }
        if case .array(let elements)? = node[member: "variants"]?.kind {
            for element in elements {
                guard case .string(let name)? = element[member: "name"]?.kind, variants[name] == nil else { continue }
                variants[name] = element.position
                weights[name] = element[member: "weight"]?.position
            }
        }
        range = node[member: "activeTokenRange"]?.position
    }
}

/// A decoded catalog and where its experiments are.
public struct LocatedCatalog: Sendable {
    /// The file's name, as diagnostics print it.
    public var file: String
    /// The catalog the file holds.
    public var catalog: Catalog
    /// Where each experiment is written, by name.
    public var locations: [String: ExperimentLocation]
    /// Experiments with errors of their own (a broken variant) whose keys and
    /// token range are sound: left out of the other checks, but where they
    /// would be active still counts for keys shared with other experiments.
    public var flawedExperiments: [Experiment] = []
}
