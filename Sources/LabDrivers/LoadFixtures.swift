/// Inputs for load tests and benchmarks of `lab serve`.
package enum LoadFixtures {
    /// A GrowthBook payload of about `bytes` bytes: features with long string defaults.
    package static func payload(bytes: Int) -> String {
        let value = String(repeating: "x", count: 1_000)
        let count = max(1, bytes / (value.utf8.count + 40))
        let features = (0..<count).map { #""load\#($0)": {"defaultValue": "\#(value)"}"# }
        return #"{"features": {"# + features.joined(separator: ", ") + "}}"
    }
}
