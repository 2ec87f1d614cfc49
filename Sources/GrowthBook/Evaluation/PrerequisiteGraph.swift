/// The features each feature's rules name as prerequisites, checked for
/// what the evaluator cuts short: cycles and chains deeper than it follows.
/// Linear in features and prerequisites, iterative so no payload can
/// exhaust the stack.
struct PrerequisiteGraph {
    private var parents: [String: [String]] = [:]
    private var order: [String] = []
    private var positions: [String: SourcePosition] = [:]

    init(features: [JSONNode.Member]) {
        for member in features where parents[member.name] == nil {
            order.append(member.name)
            positions[member.name] = member.position
            var names: [String] = []
            if case .array(let rules)? = member.value[member: "rules"]?.kind {
                for rule in rules {
                    guard case .array(let list)? = rule[member: "parentConditions"]?.kind else { continue }
                    for parent in list {
                        if case .string(let id)? = parent[member: "id"]?.kind { names.append(id) }
                    }
                }
            }
            parents[member.name] = names
        }
    }

    func check(into report: inout Report) {
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
                            at: positions[top.name] ?? SourcePosition(line: 1, column: 1)
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
                        at: positions[top.name] ?? SourcePosition(line: 1, column: 1)
                    )
                }
            }
        }
    }
}
