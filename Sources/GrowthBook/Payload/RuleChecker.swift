/// The checks of one feature rule: every member the evaluator reads has the
/// type it expects and a number it can use.
struct RuleChecker {
    let rule: JSONNode
    /// "rule 2 of feature \"cta\"", for messages.
    let what: String

    func check(into report: inout Report) {
        guard case .object = rule.kind else {
            return report.error("\(what) must be an object, found \(rule.kindName)", at: rule.position)
        }
        var variationCount: Int?
        // A bandit's rule runs its `contextualVariations`, others their `variations`.
        for name in ["contextualVariations", "variations"] {
            guard let variations = rule[member: name] else { continue }
            guard case .array(let items) = variations.kind else {
                report.error(
                    "\"\(name)\" of \(what) must be an array, found \(variations.kindName)",
                    at: variations.position
                )
                continue
            }
            guard variationCount == nil else { continue }
            variationCount = items.count
            if items.count < 2 {
                report.warning(
                    "\(what) has \(items.count) variation(s); GrowthBook runs no experiment with fewer than two",
                    at: variations.position
                )
            }
        }
        checkWeights(variationCount: variationCount, into: &report)
        if let coverage = rule[member: "coverage"], !Self.isNumber(coverage, in: 0...1) {
            report.error("\"coverage\" of \(what) must be a number from 0 to 1", at: coverage.position)
        }
        if let namespace = rule[member: "namespace"] {
            var valid = false
            if case .array(let items) = namespace.kind, items.count == 3, case .string = items[0].kind,
                case .number(let start) = items[1].kind, case .number(let end) = items[2].kind
            {
                valid = 0 <= start && start <= end && end <= 1
            }
            if !valid {
                report.error(
                    "\"namespace\" of \(what) must be [id, start, end] with 0 <= start <= end <= 1",
                    at: namespace.position
                )
            }
        }
        for name in ["condition"] {
            if let condition = rule[member: name], !Self.isObject(condition) {
                report.error(
                    "\"\(name)\" of \(what) must be an object, found \(condition.kindName)",
                    at: condition.position
                )
            }
        }
        for name in ["key", "seed", "hashAttribute", "fallbackAttribute", "id", "contextualBanditRef"] {
            if let value = rule[member: name], !Self.isString(value) {
                report.error("\"\(name)\" of \(what) must be a string, found \(value.kindName)", at: value.position)
            }
        }
        if let version = rule[member: "hashVersion"], !Self.isNumber(version, in: 1...2, whole: true) {
            report.error("\"hashVersion\" of \(what) must be 1 or 2", at: version.position)
        }
        for name in ["bucketVersion", "minBucketVersion"] {
            if let version = rule[member: name],
                !Self.isNumber(version, in: 0...PayloadLinter.maximumBucketVersion, whole: true)
            {
                report.error("\"\(name)\" of \(what) must be a whole number from 0 to 2147483647", at: version.position)
            }
        }
        if let ranges = rule[member: "ranges"], !Self.isRangeList(ranges) {
            report.error("\"ranges\" of \(what) must be a list of [start, end] pairs from 0 to 1", at: ranges.position)
        }
        if let range = rule[member: "range"], !Self.isRange(range) {
            report.error("\"range\" of \(what) must be [start, end] from 0 to 1", at: range.position)
        }
        checkList("meta", of: "objects", into: &report) { Self.isObject($0) }
        checkList("filters", of: "objects with \"seed\" and \"ranges\"", into: &report) { filter in
            guard Self.isObject(filter), filter[member: "seed"].map(Self.isString) ?? true,
                filter[member: "ranges"].map(Self.isRangeList) ?? false,
                filter[member: "hashVersion"].map({ Self.isNumber($0, in: 1...2, whole: true) }) ?? true
            else { return false }
            return true
        }
        checkList("parentConditions", of: "objects with an \"id\" and a \"condition\"", into: &report) { parent in
            guard Self.isObject(parent), let id = parent[member: "id"], Self.isString(id) else { return false }
            return parent[member: "condition"].map(Self.isObject) ?? true
        }
    }

    private func checkWeights(variationCount: Int?, into report: inout Report) {
        guard let weights = rule[member: "weights"] else { return }
        guard case .array(let items) = weights.kind,
            let values = Optional(items.compactMap({ if case .number(let value) = $0.kind { value } else { nil } })),
            values.count == items.count
        else {
            return report.error("\"weights\" of \(what) must be a list of numbers", at: weights.position)
        }
        if values.contains(where: { $0 < 0 || $0 > 1 }) {
            return report.error("\"weights\" of \(what) must be numbers from 0 to 1", at: weights.position)
        }
        guard let variationCount, values.count == variationCount else {
            return report.warning(
                "weights of \(what) do not give one number per variation; GrowthBook splits equally instead",
                at: weights.position
            )
        }
        let total = values.reduce(0, +)
        if total < 0.99 || total > 1.01 {
            report.warning(
                "weights of \(what) add up to \(total), not 1; GrowthBook splits equally instead",
                at: weights.position
            )
        }
    }

    /// A member that, when present, must be an array whose every element passes.
    private func checkList(
        _ name: String,
        of description: String,
        into report: inout Report,
        element: (JSONNode) -> Bool
    ) {
        guard let list = rule[member: name] else { return }
        guard case .array(let items) = list.kind, items.allSatisfy(element) else {
            return report.error("\"\(name)\" of \(what) must be a list of \(description)", at: list.position)
        }
    }

    static func isObject(_ node: JSONNode) -> Bool {
        if case .object = node.kind { return true }
        return false
    }

    static func isString(_ node: JSONNode) -> Bool {
        if case .string = node.kind { return true }
        return false
    }

    static func isNumber(_ node: JSONNode, in bounds: ClosedRange<Double>, whole: Bool = false) -> Bool {
        guard case .number(let value) = node.kind, bounds.contains(value) else { return false }
        return !whole || value == value.rounded()
    }

    static func isRange(_ node: JSONNode) -> Bool {
        guard case .array(let bounds) = node.kind, bounds.count == 2,
            bounds.allSatisfy({ isNumber($0, in: 0...1) })
        else { return false }
        return true
    }

    static func isRangeList(_ node: JSONNode) -> Bool {
        guard case .array(let items) = node.kind else { return false }
        return items.allSatisfy(isRange)
    }
}
