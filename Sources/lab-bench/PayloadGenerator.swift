import Foundation

/// Writes a GrowthBook payload of generated features, for benchmarks: force
/// rules with conditions, rollouts with coverage, and experiments with
/// namespaces and weights, a third of each.
enum PayloadGenerator {
    static func make(features: Int) -> Data {
        var items: [String] = []
        for index in 0..<features {
            let rules: String
            switch index % 3 {
            case 0:
                rules = #"[{"condition": {"country": {"$in": ["US", "CA"]}, "age": {"$gte": 18}}, "force": true}]"#
            case 1:
                rules =
                    #"[{"coverage": 0.4, "hashAttribute": "id", "force": "on"}, {"condition": {"plan": "pro"}, "force": "pro"}]"#
            default:
                rules =
                    #"[{"key": "exp-\#(index)", "variations": [0, 1, 2], "weights": [0.5, 0.25, 0.25], "namespace": ["ns", 0, 0.8], "condition": {"version": {"$vgte": "1.2.0"}}}]"#
            }
            items.append(#""feature\#(index)": {"defaultValue": false, "rules": \#(rules)}"#)
        }
        return Data(("{\"features\": {" + items.joined(separator: ",") + "}}").utf8)
    }
}
