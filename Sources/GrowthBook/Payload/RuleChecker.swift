/// The checks of one feature rule: every member the evaluator reads has the
/// type it expects and a number it can use.
struct RuleChecker {
    let members: RuleMembers
    let feature: String
    /// Where the rule is: its feature's index among the features, the index
    /// of that feature's `rules` member, and the rule's index in them.
    let place: (feature: Int, rules: Int, rule: Int)

    /// "rule 2 of feature \"cta\"", for messages; made only for a problem.
    var what: String { "rule \(place.rule + 1) of feature \"\(feature)\"" }

    /// The path to the rule, or to its member at `index`.
    func path(_ index: Int? = nil) -> [Int] {
        [place.feature, place.rules, place.rule] + (index.map { [$0] } ?? [])
    }

    func check(_ rule: JSONValue, into report: inout PayloadReport) {
        guard case .object = rule else {
            return report.error("\(what) must be an object, found \(rule.kindName)", at: path())
        }
        // A bandit's rule runs its `contextualVariations`, others their `variations`.
        let first = checkVariations("contextualVariations", members.contextualVariations, into: &report)
        let second = checkVariations("variations", members.variations, counted: first == nil, into: &report)
        checkWeights(variationCount: first ?? second, into: &report)
        // Numbers out of range still evaluate in every SDK (a coverage is
        // clamped, a namespace or a hash version that holds nobody is
        // skipped): warnings for `lab check`, never a reason to refuse the payload.
        if let coverage = members[members.coverage] {
            if !Self.isNumber(coverage, in: -.infinity...(.infinity)) {
                report.error("\"coverage\" of \(what) must be a number from 0 to 1", at: path(members.coverage))
            } else if !Self.isNumber(coverage, in: 0...1) {
                report.warning(
                    "\"coverage\" of \(what) is not from 0 to 1; GrowthBook reads it as the nearest of the two",
                    at: path(members.coverage)
                )
            }
        }
        if let namespace = members[members.namespace] {
            if let bounds = Self.namespaceBounds(namespace) {
                if !Self.holdsUsers(bounds) {
                    report.warning(
                        "\"namespace\" of \(what) should be [id, start, end] with 0 <= start <= end <= 1; "
                            + "only users hashed from start up to end are in it",
                        at: path(members.namespace)
                    )
                }
            } else {
                report.error(
                    "\"namespace\" of \(what) must be [id, start, end] with numbers",
                    at: path(members.namespace)
                )
            }
        }
        if let index = members.condition {
            let condition = members.members[index].value
            if Self.isObject(condition) {
                ConditionChecker(rule: self, member: index).check(condition, into: &report)
            } else if JavaScriptSemantics.truthy(condition) {
                // The SDKs still evaluate it (`Object.entries` of it): a list or text names attributes by index.
                report.warning(
                    "\"condition\" of \(what) should be an object, found \(condition.kindName); GrowthBook reads "
                        + "a list or text as conditions on attributes named 0, 1, …, and a number or true as none",
                    at: path(members.condition)
                )
            }
        }
        checkString("key", members.key, into: &report)
        checkString("seed", members.seed, into: &report)
        checkString("hashAttribute", members.hashAttribute, into: &report)
        checkString("fallbackAttribute", members.fallbackAttribute, into: &report)
        checkString("id", members.id, into: &report)
        checkString("contextualBanditRef", members.contextualBanditRef, into: &report)
        if let version = members[members.hashVersion], Self.isUnknownHashVersion(version) {
            report.warning(Self.unknownHashVersion(of: what), at: path(members.hashVersion))
        }
        checkBucketVersion("bucketVersion", members.bucketVersion, into: &report)
        checkBucketVersion("minBucketVersion", members.minBucketVersion, into: &report)
        if let ranges = members[members.ranges], !Self.isRangeList(ranges) {
            report.error(
                "\"ranges\" of \(what) must be a list of [start, end] pairs from 0 to 1",
                at: path(members.ranges)
            )
        }
        if let range = members[members.range], !Self.isRange(range) {
            report.error("\"range\" of \(what) must be [start, end] from 0 to 1", at: path(members.range))
        }
        checkList("meta", members.meta, of: "objects", into: &report) { Self.isObject($0) }
        checkList(
            "filters",
            members.filters,
            of: "objects with \"seed\" and \"ranges\"",
            into: &report,
            element: Self.isFilter
        )
        if let filters = members[members.filters]?.elements,
            filters.contains(where: { $0["hashVersion"].map(Self.isUnknownHashVersion) ?? false })
        {
            report.warning(Self.unknownHashVersion(of: "a filter of " + what), at: path(members.filters))
        }
        checkList(
            "parentConditions",
            members.parentConditions,
            of: "objects with an \"id\" and a \"condition\"",
            into: &report
        ) { parent in
            guard Self.isObject(parent), let id = parent["id"], Self.isString(id) else { return false }
            return parent["condition"].map(Self.isObject) ?? true
        }
    }

    /// Whether ``check(_:into:)`` finds nothing in the rule whose members
    /// these are, its condition aside (the condition's compile tells:
    /// ``Condition/hasOnlyPlainTests(count:)``), asked of every rule as it
    /// is decoded (``FeatureRule/needsChecks``) so that the checks run only
    /// on the rules it does not clear. It makes no message and no path, and
    /// it does not clear a rule with prerequisites or a bandit: the checks
    /// across features gather those. It asks through the checks' own
    /// predicates (``weightsProblem(_:variationCount:)``,
    /// ``namespaceBounds(_:)``, ``isBucketVersion(_:)``, …);
    /// `RuleCheckerTests` holds the two together.
    static func isRegular(_ members: RuleMembers) -> Bool {
        if members.parentConditions != nil || members.contextualBanditRef != nil { return false }
        var variationCount: Int?
        if let index = members.contextualVariations {
            guard case .array(let items) = members.members[index].value, items.count >= 2 else { return false }
            variationCount = items.count
        }
        if let index = members.variations {
            guard case .array(let items) = members.members[index].value else { return false }
            if variationCount == nil {
                guard items.count >= 2 else { return false }
                variationCount = items.count
            }
        }
        if let weights = members[members.weights], weightsProblem(weights, variationCount: variationCount) != nil {
            return false
        }
        if let coverage = members[members.coverage], !isNumber(coverage, in: 0...1) { return false }
        if let namespace = members[members.namespace] {
            guard let bounds = namespaceBounds(namespace), holdsUsers(bounds) else { return false }
        }
        for index in [members.key, members.seed, members.hashAttribute, members.fallbackAttribute, members.id] {
            if let value = members[index], !isString(value) { return false }
        }
        if let version = members[members.hashVersion], isUnknownHashVersion(version) { return false }
        guard members[members.bucketVersion].map(isBucketVersion) ?? true,
            members[members.minBucketVersion].map(isBucketVersion) ?? true
        else { return false }
        if let ranges = members[members.ranges], !isRangeList(ranges) { return false }
        if let range = members[members.range], !isRange(range) { return false }
        if let index = members.meta {
            guard case .array(let items) = members.members[index].value, items.allSatisfy(isObject) else {
                return false
            }
        }
        if let index = members.filters {
            guard case .array(let filters) = members.members[index].value, filters.allSatisfy(isRegularFilter) else {
                return false
            }
        }
        return true
    }

    /// A filter: an object with a string `seed` or none, and a list of ranges.
    private static func isFilter(_ filter: JSONValue) -> Bool {
        isObject(filter) && (filter["seed"].map(isString) ?? true) && (filter["ranges"].map(isRangeList) ?? false)
    }

    /// A filter the checks pass: one whose hash version an SDK knows.
    private static func isRegularFilter(_ filter: JSONValue) -> Bool {
        isFilter(filter) && !(filter["hashVersion"].map(isUnknownHashVersion) ?? false)
    }

    /// Checks a list of variations; returns how many there are, when `counted`.
    private func checkVariations(
        _ name: String,
        _ index: Int?,
        counted: Bool = true,
        into report: inout PayloadReport
    ) -> Int? {
        guard let variations = members[index] else { return nil }
        guard case .array(let items) = variations else {
            report.error("\"\(name)\" of \(what) must be an array, found \(variations.kindName)", at: path(index))
            return nil
        }
        guard counted else { return nil }
        if items.count < 2 {
            report.warning(
                "\(what) has \(items.count) variation(s); GrowthBook runs no experiment with fewer than two",
                at: path(index)
            )
        }
        return items.count
    }

    private func checkString(_ name: String, _ index: Int?, into report: inout PayloadReport) {
        if let value = members[index], !Self.isString(value) {
            report.error("\"\(name)\" of \(what) must be a string, found \(value.kindName)", at: path(index))
        }
    }

    private func checkBucketVersion(_ name: String, _ index: Int?, into report: inout PayloadReport) {
        if let version = members[index], !Self.isBucketVersion(version) {
            report.error("\"\(name)\" of \(what) must be a whole number from 0 to 2147483647", at: path(index))
        }
    }

    private func checkWeights(variationCount: Int?, into report: inout PayloadReport) {
        guard let weights = members[members.weights] else { return }
        switch Self.weightsProblem(weights, variationCount: variationCount) {
        case .notNumbers?:
            report.error("\"weights\" of \(what) must be a list of numbers", at: path(members.weights))
        case .outOfRange?:
            report.error("\"weights\" of \(what) must be numbers from 0 to 1", at: path(members.weights))
        case .notOnePerVariation?:
            report.warning(
                "weights of \(what) do not give one number per variation; GrowthBook splits equally instead",
                at: path(members.weights)
            )
        case .total(let total)?:
            report.warning(
                "weights of \(what) add up to \(total), not 1; GrowthBook splits equally instead",
                at: path(members.weights)
            )
        case nil: break
        }
    }

    /// What is wrong with a rule's weights, the first of these found.
    enum WeightsProblem: Equatable {
        case notNumbers, outOfRange, notOnePerVariation
        /// They add up to this, not 1.
        case total(Double)
    }

    /// What is wrong with `weights` for `variationCount` variations, `nil` for nothing.
    static func weightsProblem(_ weights: JSONValue, variationCount: Int?) -> WeightsProblem? {
        // Read in place: a list of the numbers was an allocation for every experiment rule.
        guard case .array(let items) = weights, items.allSatisfy({ $0.numberValue != nil }) else { return .notNumbers }
        if items.contains(where: { ($0.numberValue ?? 0) < 0 || ($0.numberValue ?? 0) > 1 }) { return .outOfRange }
        guard let variationCount, items.count == variationCount else { return .notOnePerVariation }
        let total = items.reduce(0) { $0 + ($1.numberValue ?? 0) }
        return total < 0.99 || total > 1.01 ? .total(total) : nil
    }

    /// A namespace's bounds, when it is `[id, start, end]` with numbers.
    static func namespaceBounds(_ namespace: JSONValue) -> (start: Double, end: Double)? {
        guard case .array(let items) = namespace, items.count == 3, case .string = items[0],
            case .number(let start) = items[1], case .number(let end) = items[2]
        else { return nil }
        return (start, end)
    }

    /// Whether a namespace's bounds hold users: 0 <= start <= end <= 1.
    static func holdsUsers(_ bounds: (start: Double, end: Double)) -> Bool {
        0 <= bounds.start && bounds.start <= bounds.end && bounds.end <= 1
    }

    /// A bucket version: a whole number from 0 to ``PayloadLinter/maximumBucketVersion``.
    static func isBucketVersion(_ version: JSONValue) -> Bool {
        isNumber(version, in: 0...PayloadLinter.maximumBucketVersion, whole: true)
    }

    /// A member that, when present, must be an array whose every element passes.
    private func checkList(
        _ name: String,
        _ index: Int?,
        of description: String,
        into report: inout PayloadReport,
        element: (JSONValue) -> Bool
    ) {
        guard let list = members[index] else { return }
        guard case .array(let items) = list, items.allSatisfy(element) else {
            return report.error("\"\(name)\" of \(what) must be a list of \(description)", at: path(index))
        }
    }

    /// Whether a given hash version is one no SDK knows (a falsy one is the default).
    static func isUnknownHashVersion(_ version: JSONValue) -> Bool {
        JavaScriptSemantics.truthy(version) && !isNumber(version, in: 1...2, whole: true)
    }

    /// A hash version no SDK knows: users are never hashed into what it guards.
    static func unknownHashVersion(of what: String) -> String {
        "\"hashVersion\" of \(what) is neither 1 nor 2; GrowthBook's SDKs hash nobody with it, "
            + "so no user is bucketed, included or let through by it"
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    static func isString(_ value: JSONValue) -> Bool {
        if case .string = value { return true }
        return false
    }

    static func isNumber(_ value: JSONValue, in bounds: ClosedRange<Double>, whole: Bool = false) -> Bool {
        guard case .number(let number) = value, bounds.contains(number) else { return false }
        return !whole || number == number.rounded()
    }

    static func isRange(_ value: JSONValue) -> Bool {
        guard case .array(let bounds) = value, bounds.count == 2, bounds.allSatisfy({ isNumber($0, in: 0...1) })
        else { return false }
        return true
    }

    static func isRangeList(_ value: JSONValue) -> Bool {
        guard case .array(let items) = value else { return false }
        return items.allSatisfy(isRange)
    }
}
