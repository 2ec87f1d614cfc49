/// Checks a GrowthBook payload: the JSON, the shape and numbers of every
/// rule, contextual bandits, prerequisite chains, and feature keys something else also assigns.
///
/// Its errors are exactly what the runtime refuses: ``GrowthBookPayload``
/// runs the same checks before a payload may replace the last good one, so
/// a linter's errors are every reason an app would reject the payload.
/// Warnings are what the SDK tolerates (it splits equally, skips the rule).
public struct PayloadLinter: Sendable {
    /// The largest bucket version a rule may carry (GrowthBook's are small counters).
    public static let maximumBucketVersion = 2_147_483_647.0

    /// A linter.
    public init() {}

    /// Diagnostics for the payload text; `file` names it. `claimedKeys` maps
    /// keys that something else already assigns (an app's own experiments) to
    /// a description of what does: a feature of the same key is an error.
    public func check(_ text: String, file: String, claimedKeys: [String: String] = [:]) -> [Diagnostic] {
        let root: JSONValue
        do {
            root = try JSONValue.parse(text)
        } catch {
            return [Diagnostic(file: file, position: error.position, message: "malformed JSON: \(error.message)")]
        }
        guard case .object = root else {
            var report = PayloadReport()
            report.error("a GrowthBook payload must be a JSON object, found \(root.kindName)", in: .payload, at: [])
            return report.resolved(file: file, text: text)
        }
        guard let features = root["features"] else {
            var report = PayloadReport()
            if root["encryptedFeatures"] != nil {
                report.warning(
                    "the features are encrypted; they are checked when the source decrypts them",
                    in: .payload,
                    at: []
                )
            } else {
                report.error("the payload has no \"features\" object", in: .payload, at: [])
            }
            return report.resolved(file: file, text: text)
        }
        return check(features: features, bandits: root["contextualBandits"], claimedKeys: claimedKeys)
            .resolved(file: file, text: text)
    }

    /// The findings, as text, of the checks of every rule and of the checks
    /// that skip the rules their decode cleared (as a payload's are), for a
    /// `features` object and its bandits: the same for every payload, which
    /// the fuzz target and `RuleCheckerTests` hold them to.
    package func findingsOfBothChecks(
        features: JSONValue,
        bandits: JSONValue?
    ) -> (everyRule: [String], clearedSkipped: [String]) {
        func text(_ report: PayloadReport) -> [String] {
            report.findings.map { "\($0.severity) \($0.part) \($0.path) \($0.message)" }
        }
        let decoded = GrowthBookFeature.decoded(features.members ?? [])
        return (
            text(check(features: features, bandits: bandits)),
            text(check(features: features, bandits: bandits, decoded: decoded))
        )
    }

    /// The problems of a payload's `features` object (plain or decrypted) and
    /// of its `contextualBandits`, when it has them, placed by path.
    /// `decoded` are the same features decoded, when they are: a feature or
    /// rule its decode cleared (``GrowthBookFeature/needsChecks``,
    /// ``FeatureRule/needsChecks``) is not read again.
    func check(
        features: JSONValue,
        bandits: JSONValue?,
        claimedKeys: [String: String] = [:],
        decoded: DecodedFeatures? = nil
    ) -> PayloadReport {
        var report = PayloadReport()
        guard case .object(let members) = features else {
            report.error("\"features\" must be an object, found \(features.kindName)", at: [])
            return report
        }
        // Only features that line up with these are trusted to clear a rule,
        // and only when no key is claimed, which every feature is looked up for.
        let decoded = decoded.flatMap { $0.features.count == members.count && claimedKeys.isEmpty ? $0 : nil }
        var references: [BanditChecker.Reference] = []
        var hasPrerequisites = false
        for featureIndex in decoded?.needingChecks ?? Array(members.indices) {
            let member = members[featureIndex]
            // Asked only when there are claims: the lookup hashes the key even in an empty dictionary.
            if !claimedKeys.isEmpty, let owner = claimedKeys[member.key] {
                report.error(
                    "feature \"\(member.key)\" is also assigned by \(owner); the two can be active together",
                    at: [featureIndex],
                    atName: true
                )
            }
            guard case .object(let definition) = member.value else {
                report.error(
                    "feature \"\(member.key)\" must be an object, found \(member.value.kindName)",
                    at: [featureIndex]
                )
                continue
            }
            guard let rulesIndex = definition.firstIndex(where: { $0.key == "rules" }) else { continue }
            guard case .array(let list) = definition[rulesIndex].value else {
                report.error(
                    "\"rules\" of feature \"\(member.key)\" must be an array, found \(definition[rulesIndex].value.kindName)",
                    at: [featureIndex, rulesIndex]
                )
                continue
            }
            let decodedRules = decoded.map { $0.features[featureIndex].rules }.flatMap {
                $0.count == list.count ? $0 : nil
            }
            for ruleIndex in list.indices {
                if let decodedRules, !decodedRules[ruleIndex].needsChecks { continue }
                let rule = list[ruleIndex]
                let checker = RuleChecker(
                    members: RuleMembers(rule),
                    feature: member.key,
                    place: (featureIndex, rulesIndex, ruleIndex)
                )
                checker.check(rule, into: &report)
                if checker.members.parentConditions != nil { hasPrerequisites = true }
                if let index = checker.members.contextualBanditRef, case .string(let name) = checker.members[index] {
                    references.append(
                        BanditChecker.Reference(
                            name: name,
                            path: [featureIndex, rulesIndex, ruleIndex, index],
                            rule: checker.what
                        )
                    )
                }
            }
        }
        // Most payloads have no prerequisites: then there is no graph to walk.
        if hasPrerequisites { PrerequisiteGraph(features: members).check(into: &report) }
        BanditChecker(bandits: bandits, references: references).check(into: &report)
        return report
    }
}
