/// Checks a GrowthBook payload: the JSON, the shape and numbers of every
/// rule, contextual bandits, prerequisite chains, and feature keys something else also assigns.
///
/// Its errors are exactly what the runtime refuses: ``GrowthBookPayload``
/// runs the same checks before a payload may replace the last good one, so
/// `lab check --growthbook` reports every payload an app would reject.
/// Warnings are what the SDK tolerates (it splits equally, skips the rule).
public struct PayloadLinter: Sendable {
    /// The largest bucket version a rule may carry (GrowthBook's are small counters).
    public static let maximumBucketVersion = 2_147_483_647.0

    public init() {}

    /// Diagnostics for the payload text; `file` names it. `claimedKeys` maps
    /// keys that something else already assigns (an app's own experiments) to
    /// a description of what does: a feature of the same key is an error.
    public func check(_ text: String, file: String, claimedKeys: [String: String] = [:]) -> [Diagnostic] {
        let root: JSONNode
        do {
            root = try JSONNodeParser.parse(text)
        } catch {
            return [Diagnostic(file: file, position: error.position, message: "malformed JSON: \(error.message)")]
        }
        guard case .object = root.kind else {
            return [
                Diagnostic(
                    file: file,
                    position: root.position,
                    message: "a GrowthBook payload must be a JSON object, found \(root.kindName)"
                )
            ]
        }
        guard let features = root[member: "features"] else {
            if root[member: "encryptedFeatures"] != nil {
                return [
                    Diagnostic(
                        file: file,
                        position: root.position,
                        severity: .warning,
                        message: "the features are encrypted; they are checked when the source decrypts them"
                    )
                ]
            }
            return [Diagnostic(file: file, position: root.position, message: "the payload has no \"features\" object")]
        }
        return check(
            features: features,
            bandits: root[member: "contextualBandits"],
            file: file,
            claimedKeys: claimedKeys
        )
    }

    /// Diagnostics for a payload's `features` object (plain or decrypted) and
    /// its `contextualBandits`, when it has them.
    public func check(
        features: JSONNode,
        bandits: JSONNode? = nil,
        file: String,
        claimedKeys: [String: String] = [:]
    ) -> [Diagnostic] {
        var report = Report(file: file)
        guard case .object(let members) = features.kind else {
            report.error("\"features\" must be an object, found \(features.kindName)", at: features.position)
            return report.diagnostics
        }
        var references: [(name: String, position: SourcePosition, rule: String)] = []
        for member in members {
            if let owner = claimedKeys[member.name] {
                report.error(
                    "feature \"\(member.name)\" is also assigned by \(owner); the two can be active together",
                    at: member.position
                )
            }
            guard case .object = member.value.kind else {
                report.error(
                    "feature \"\(member.name)\" must be an object, found \(member.value.kindName)",
                    at: member.value.position
                )
                continue
            }
            guard let rules = member.value[member: "rules"] else { continue }
            guard case .array(let list) = rules.kind else {
                report.error(
                    "\"rules\" of feature \"\(member.name)\" must be an array, found \(rules.kindName)",
                    at: rules.position
                )
                continue
            }
            for (index, rule) in list.enumerated() {
                let what = "rule \(index + 1) of feature \"\(member.name)\""
                RuleChecker(rule: rule, what: what).check(into: &report)
                if case .string(let name)? = rule[member: "contextualBanditRef"]?.kind {
                    references.append((name, rule[member: "contextualBanditRef"]!.position, what))
                }
            }
        }
        PrerequisiteGraph(features: members).check(into: &report)
        BanditChecker(bandits: bandits, references: references).check(into: &report)
        return report.diagnostics
    }
}

/// Diagnostics as they are found.
struct Report {
    let file: String
    var diagnostics: [Diagnostic] = []

    mutating func error(_ message: String, at position: SourcePosition) {
        diagnostics.append(Diagnostic(file: file, position: position, message: message))
    }

    mutating func warning(_ message: String, at position: SourcePosition) {
        diagnostics.append(Diagnostic(file: file, position: position, severity: .warning, message: message))
    }
}
