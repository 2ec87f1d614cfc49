/// GrowthBook's targeting conditions: MongoDB-style rules over attributes,
/// evaluated exactly as GrowthBook's JavaScript SDK does (its conformance cases
/// pin the details, JavaScript coercions included). Payloads compile their
/// conditions once (`Condition`); this evaluates one given as JSON.
public enum ConditionEvaluator {
    /// Whether `attributes` satisfy `condition`; `savedGroups` serve `$inGroup`.
    public static func evaluate(
        _ condition: JSONValue,
        attributes: JSONValue,
        savedGroups: [String: [JSONValue]] = [:]
    ) -> Bool {
        Condition(condition).holds(for: JavaScriptSemantics.asParsed(attributes), groups: savedGroups)
    }
}
