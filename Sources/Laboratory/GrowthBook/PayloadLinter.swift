/// Checks a GrowthBook payload the way `lab check --growthbook` reports it:
/// the JSON, the shape of every rule (variations, weights, coverage,
/// namespace, condition), and feature keys that local catalogs also assign.
public struct PayloadLinter: Sendable {
    public init() {}

    /// Diagnostics for the payload text; `file` names it. `catalogKeys` maps
    /// keys that local experiments assign to a description of the experiment.
    public func check(_ text: String, file: String, catalogKeys: [String: String] = [:]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func error(_ message: String, at position: SourcePosition) {
            diagnostics.append(Diagnostic(file: file, position: position, message: message))
        }
        func warning(_ message: String, at position: SourcePosition) {
            diagnostics.append(Diagnostic(file: file, position: position, severity: .warning, message: message))
        }
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            return [Diagnostic(file: file, position: error.position, message: "malformed JSON: \(error.message)")]
        }
        guard case .object = root.kind else {
            error("a GrowthBook payload must be a JSON object, found \(root.kindName)", at: root.position)
            return diagnostics
        }
        guard let features = root[member: "features"] else {
            if root[member: "encryptedFeatures"] != nil {
                warning("the features are encrypted; they are checked when the source decrypts them", at: root.position)
            } else {
                error("the payload has no \"features\" object", at: root.position)
            }
            return diagnostics
        }
        guard case .object(let members) = features.kind else {
            error("\"features\" must be an object, found \(features.kindName)", at: features.position)
            return diagnostics
        }
        for member in members {
            if let owner = catalogKeys[member.name] {
                error("feature \"\(member.name)\" is also assigned by \(owner); the two can be active together", at: member.position)
            }
            guard let rules = member.value[member: "rules"] else { continue }
            guard case .array(let list) = rules.kind else {
                error("\"rules\" of feature \"\(member.name)\" must be an array, found \(rules.kindName)", at: rules.position)
                continue
            }
            for (index, rule) in list.enumerated() {
                checkRule(rule, feature: member.name, number: index + 1, error: error, warning: warning)
            }
        }
        return diagnostics
    }

    private func checkRule(
        _ rule: JSONNode, feature: String, number: Int, error: (String, SourcePosition) -> Void,
        warning: (String, SourcePosition) -> Void
    ) {
        let what = "rule \(number) of feature \"\(feature)\""
        guard case .object = rule.kind else {
            return error("\(what) must be an object, found \(rule.kindName)", rule.position)
        }
        var variationCount: Int?
        if let variations = rule[member: "variations"] {
            if case .array(let items) = variations.kind {
                variationCount = items.count
                if items.count < 2 { error("\(what) has \(items.count) variation(s); an experiment needs at least two", variations.position) }
            } else {
                error("\"variations\" of \(what) must be an array, found \(variations.kindName)", variations.position)
            }
        }
        if let weights = rule[member: "weights"] {
            let values: [Double]? = if case .array(let items) = weights.kind {
                items.compactMap { if case .number(let value) = $0.kind { value } else { nil } }
            } else { nil }
            if let values, let variationCount, values.count == variationCount {
                let total = values.reduce(0, +)
                if total < 0.99 || total > 1.01 {
                    warning("weights of \(what) add up to \(total), not 1; GrowthBook splits equally instead", weights.position)
                }
            } else {
                warning("weights of \(what) do not give one number per variation; GrowthBook splits equally instead", weights.position)
            }
        }
        if let coverage = rule[member: "coverage"] {
            if case .number(let value) = coverage.kind, (0...1).contains(value) {} else {
                error("\"coverage\" of \(what) must be a number from 0 to 1", coverage.position)
            }
        }
        if let namespace = rule[member: "namespace"] {
            var valid = false
            if case .array(let items) = namespace.kind, items.count == 3, case .string = items[0].kind,
               case .number(let start) = items[1].kind, case .number(let end) = items[2].kind {
                valid = 0 <= start && start <= end && end <= 1
            }
            if !valid { error("\"namespace\" of \(what) must be [id, start, end] with 0 <= start <= end <= 1", namespace.position) }
        }
        if let condition = rule[member: "condition"], !Self.isObject(condition) {
            error("\"condition\" of \(what) must be an object, found \(condition.kindName)", condition.position)
        }
    }

    private static func isObject(_ node: JSONNode) -> Bool {
        if case .object = node.kind { return true }
        return false
    }
}
