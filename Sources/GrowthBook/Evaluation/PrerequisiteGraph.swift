/// The features each feature's rules name as prerequisites, checked for
/// what the evaluator cuts short: cycles and chains deeper than it follows.
/// Linear in features and prerequisites, iterative so no payload can
/// exhaust the stack.
struct PrerequisiteGraph {
    private var parents: [String: [String]] = [:]
    private var order: [String] = []
    /// Each feature's index among the features, where its problems are reported.
    private var places: [String: Int] = [:]

    init(features: [JSONValue.Member]) {
        for (index, member) in features.enumerated() where parents[member.key] == nil {
            order.append(member.key)
            places[member.key] = index
            var names: [String] = []
            for rule in member.value["rules"]?.elements ?? [] {
                for parent in rule["parentConditions"]?.elements ?? [] {
                    if let id = parent["id"]?.stringValue { names.append(id) }
                }
            }
            parents[member.key] = names
        }
    }

    func check(into report: inout PayloadReport) {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        /// The longest chain of prerequisites below each feature.
        var depth: [String: Int] = [:]
        let limit = GrowthBookEvaluator.maximumPrerequisiteDepth
        for start in order where marks[start] == nil {
            // Depth-first with an explicit stack: (feature, next parent to visit).
            var stack: [(name: String, next: Int)] = [(start, 0)]
            marks[start] = .visiting
            while let top = stack.last {
                let list = parents[top.name] ?? []
                if top.next < list.count {
                    stack[stack.count - 1].next += 1
                    let parent = list[top.next]
                    switch marks[parent] {
                    case .visiting?:
                        report.warning(
                            "prerequisites of feature \"\(top.name)\" lead back to \"\(parent)\"; the cycle evaluates as cyclicPrerequisite",
                            at: places[top.name].map { [$0] } ?? [],
                            atName: true
                        )
                    case .done?:
                        break
                    case nil:
                        guard parents[parent] != nil else { continue }  // unknown: evaluates as unknownFeature
                        marks[parent] = .visiting
                        stack.append((parent, 0))
                    }
                    continue
                }
                stack.removeLast()
                marks[top.name] = .done
                let below = list.compactMap { depth[$0] }.max().map { $0 + 1 } ?? 0
                depth[top.name] = below
                if below == limit {  // said once, where the chain first gets too long
                    report.warning(
                        "feature \"\(top.name)\" has a chain of \(below) prerequisites; past \(limit) the rest evaluate as cyclicPrerequisite",
                        at: places[top.name].map { [$0] } ?? [],
                        atName: true
                    )
                }
            }
        }
    }
}
