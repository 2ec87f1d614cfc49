import GrowthBook

/// Walks a parsed catalog document, building the model and collecting diagnostics.
///
/// Experiments arrive one at a time through ``readExperiment(_:)`` while the
/// file is parsed (see ``JSONNodeParser/parse(_:streaming:element:)``); the
/// root is checked with ``read(_:)`` once the whole file is parsed.
struct CatalogReader {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    private var experiments: [Experiment] = []
    private var seenExperiments: [String: SourcePosition] = [:]
    /// Experiments read with errors of their own: left out of what `lab
    /// check` lints further, so one broken experiment hides nothing else.
    private(set) var flawed: Set<String> = []
    /// Flawed experiments whose keys or token range are broken too: not even
    /// the shared-key check can say where they would be active.
    private(set) var unplaced: Set<String> = []
    /// Where each experiment's parts are, when asked for (by `lab check`).
    private(set) var locations: [String: ExperimentLocation]?

    init(file: String, recordsLocations: Bool = false) {
        self.file = file
        if recordsLocations { locations = [:] }
    }

    static let experimentFields = [
        "name", "keys", "variants", "baseline", "activeTokenRange", "subject", "bucketing", "whitelist", "status",
        "winner",
    ]
    static let variantFields = ["name", "weight", "assignments"]

    private mutating func error(_ message: String, at position: SourcePosition) {
        diagnostics.append(Diagnostic(file: file, position: position, message: message))
    }

    mutating func read(_ root: JSONNode) -> Catalog? {
        guard case .object(let members) = root.kind else {
            error(
                "the catalog must be a JSON object with \"source\" and \"experiments\", found \(root.kindName)",
                at: root.position
            )
            return nil
        }
        checkMembers(members, allowed: ["source", "experiments"], in: "the catalog")
        let source = requiredString("source", of: root, in: "the catalog")
        guard let experimentsNode = required("experiments", of: root, in: "the catalog") else { return nil }
        guard case .array(let elements) = experimentsNode.kind else {
            error("\"experiments\" must be an array, found \(experimentsNode.kindName)", at: experimentsNode.position)
            return nil
        }
        // Elements left in the tree (when it was not streamed) are read now.
        for element in elements { readExperiment(element) }
        guard let source else { return nil }
        if source.isEmpty { error("\"source\" must not be empty", at: root[member: "source"]!.position) }
        return Catalog(source: source, experiments: experiments)
    }

    /// Reads one element of `"experiments"` into the catalog.
    mutating func readExperiment(_ element: JSONNode) {
        let errorsBefore = diagnostics.count
        guard let experiment = experiment(element) else { return }
        if diagnostics[errorsBefore...].contains(where: { $0.severity == .error }) { flawed.insert(experiment.name) }
        if let first = seenExperiments[experiment.name] {
            error(
                "experiment \"\(experiment.name)\" is defined twice (first at line \(first.line))",
                at: element.position
            )
            return
        }
        seenExperiments[experiment.name] = element.position
        experiments.append(experiment)
        if locations != nil { locations?[experiment.name] = ExperimentLocation(element) }
    }

    private mutating func experiment(_ node: JSONNode) -> Experiment? {
        guard case .object(let members) = node.kind else {
            error("an experiment must be an object, found \(node.kindName)", at: node.position)
            return nil
        }
        guard let name = requiredString("name", of: node, in: "an experiment") else { return nil }
        if name.isEmpty { error("an experiment's \"name\" must not be empty", at: node.position) }
        // Messages are built only when there is something to report.
        func what() -> String { "experiment \"\(name)\"" }
        checkMembers(
            members,
            allowed: Self.experimentFields,
            in: what()
        )
        let errorsBeforeShape = diagnostics.count
        let keys = readKeys(of: node, in: what())
        let range = node[member: "activeTokenRange"].flatMap { readTokenRange($0, in: what()) }
        if diagnostics[errorsBeforeShape...].contains(where: { $0.severity == .error }) { unplaced.insert(name) }
        let baseline = requiredString("baseline", of: node, in: what())
        guard let variantsNode = required("variants", of: node, in: what()) else { return nil }
        guard case .array(let elements) = variantsNode.kind else {
            error(
                "\"variants\" of \(what()) must be an array, found \(variantsNode.kindName)",
                at: variantsNode.position
            )
            return nil
        }
        if elements.isEmpty { error("\(what()) has no variants", at: variantsNode.position) }
        var variants: [Variant] = []
        var seen: [String: SourcePosition] = [:]
        // Built once for all the variants: each checks its keys against it.
        let keySet = keys.map(Set.init)
        for element in elements {
            guard let variant = readVariant(element, experiment: name, keys: keys, keySet: keySet) else { continue }
            if let first = seen[variant.name] {
                error(
                    "variant \"\(variant.name)\" of \(what()) is defined twice (first at line \(first.line))",
                    at: element.position
                )
                continue
            }
            seen[variant.name] = element.position
            variants.append(variant)
        }
        guard let keys, let baseline else { return nil }
        if !elements.isEmpty, seen[baseline] == nil {
            error(
                "baseline \"\(baseline)\" of \(what()) names no variant (variants: \(variants.map(\.name).joined(separator: ", ")))",
                at: node[member: "baseline"]!.position
            )
        }
        let subject = readChoice("subject", of: node, in: what(), default: Subject.device)
        let bucketing = readChoice(
            "bucketing",
            of: node,
            in: what(),
            default: subject == .user ? Bucketing.hash : .random
        )
        if subject == .user, bucketing == .random, let node = node[member: "bucketing"] {
            error(
                "\(what()) is user-level, so it needs \"bucketing\": \"hash\" to give one user the same variant on every device",
                at: node.position
            )
        }
        let names = Set(variants.map(\.name))
        let whitelist = readWhitelist(of: node, variants: names, in: what())
        let winner = readResolution(of: node, variants: names, in: what())
        return Experiment(
            name: name,
            keys: keys,
            variants: variants,
            baseline: baseline,
            activeTokenRange: range,
            subject: subject,
            bucketing: bucketing,
            whitelist: whitelist,
            winner: winner
        )
    }

    /// A string member that must be one of an enumeration's raw values.
    private mutating func readChoice<T: RawRepresentable & CaseIterable>(
        _ name: String,
        of node: JSONNode,
        in what: @autoclosure () -> String,
        default fallback: T
    ) -> T where T.RawValue == String {
        guard let value = node[member: name] else { return fallback }
        let choices = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard case .string(let text) = value.kind, let choice = T(rawValue: text) else {
            let found = if case .string(let text) = value.kind { "\"\(text)\"" } else { value.kindName }
            error("\"\(name)\" of \(what()) must be \(choices), found \(found)", at: value.position)
            return fallback
        }
        return choice
    }

    /// `"whitelist": {"<subject id>": "<variant>"}`.
    private mutating func readWhitelist(
        of node: JSONNode,
        variants: Set<String>,
        in what: @autoclosure () -> String
    ) -> [String: String] {
        guard let value = node[member: "whitelist"] else { return [:] }
        guard case .object(let pairs) = value.kind else {
            error(
                "\"whitelist\" of \(what()) must be an object of subject id → variant, found \(value.kindName)",
                at: value.position
            )
            return [:]
        }
        var whitelist: [String: String] = [:]
        for pair in pairs {
            guard case .string(let variant) = pair.value.kind else {
                error(
                    "whitelist of \(what()) must pin \"\(pair.name)\" to a variant name, found \(pair.value.kindName)",
                    at: pair.value.position
                )
                continue
            }
            if !variants.contains(variant) {
                error(
                    "whitelist of \(what()) pins \"\(pair.name)\" to \"\(variant)\", which is not one of its variants",
                    at: pair.value.position
                )
                continue
            }
            whitelist[pair.name] = variant
        }
        return whitelist
    }

    /// `"status": "resolved"` with its `"winner"`; the winner, or `nil` while running.
    private mutating func readResolution(
        of node: JSONNode,
        variants: Set<String>,
        in what: @autoclosure () -> String
    ) -> String? {
        let resolved =
            node[member: "status"] != nil
            && readChoice("status", of: node, in: what(), default: Status.running) == .resolved
        guard let winnerNode = node[member: "winner"] else {
            if resolved { error("\(what()) is resolved but names no \"winner\"", at: node[member: "status"]!.position) }
            return nil
        }
        guard case .string(let winner) = winnerNode.kind else {
            error(
                "\"winner\" of \(what()) must be a variant name, found \(winnerNode.kindName)",
                at: winnerNode.position
            )
            return nil
        }
        guard resolved else {
            error("\(what()) names a \"winner\" but its \"status\" is not \"resolved\"", at: winnerNode.position)
            return nil
        }
        guard variants.contains(winner) else {
            error("winner \"\(winner)\" of \(what()) is not one of its variants", at: winnerNode.position)
            return nil
        }
        return winner
    }

    /// The lifecycle of an experiment in a catalog.
    private enum Status: String, CaseIterable {
        case running
        case resolved
    }

    private mutating func readKeys(of node: JSONNode, in what: @autoclosure () -> String) -> [String]? {
        guard let keysNode = required("keys", of: node, in: what()) else { return nil }
        guard case .array(let elements) = keysNode.kind else {
            error(
                "\"keys\" of \(what()) must be an array of strings, found \(keysNode.kindName)",
                at: keysNode.position
            )
            return nil
        }
        if elements.isEmpty { error("\(what()) has no keys", at: keysNode.position) }
        var keys: [String] = []
        var seen: Set<String> = []
        for element in elements {
            guard case .string(let key) = element.kind else {
                error("a key of \(what()) must be a string, found \(element.kindName)", at: element.position)
                continue
            }
            if key.isEmpty {
                error("a key of \(what()) is empty", at: element.position)
            } else if !seen.insert(key).inserted {
                error("key \"\(key)\" is listed twice in \(what())", at: element.position)
            } else {
                keys.append(key)
            }
        }
        return keys
    }

    private mutating func readTokenRange(_ node: JSONNode, in what: @autoclosure () -> String) -> HalfOpenRange? {
        guard case .array(let elements) = node.kind, elements.count == 2,
            case .number(let lower) = elements[0].kind, case .number(let upper) = elements[1].kind
        else {
            error("\"activeTokenRange\" of \(what()) must be [start, end] with two numbers", at: node.position)
            return nil
        }
        if !(0...1).contains(lower) || !(0...1).contains(upper) {
            error("\"activeTokenRange\" of \(what()) must lie in [0, 1], found [\(lower), \(upper)]", at: node.position)
            return nil
        }
        if lower > upper {
            error(
                "\"activeTokenRange\" of \(what()) is reversed: start \(lower) is after end \(upper)",
                at: node.position
            )
            return nil
        }
        return HalfOpenRange(lower: lower, upper: upper)
    }

    private mutating func readVariant(
        _ node: JSONNode,
        experiment: String,
        keys: [String]?,
        keySet: Set<String>?
    ) -> Variant? {
        func owner() -> String { "experiment \"\(experiment)\"" }
        guard case .object(let members) = node.kind else {
            error("a variant of \(owner()) must be an object, found \(node.kindName)", at: node.position)
            return nil
        }
        guard let name = requiredString("name", of: node, in: "a variant of \(owner())") else { return nil }
        if name.isEmpty { error("a variant of \(owner()) has an empty name", at: node.position) }
        func what() -> String { "variant \"\(name)\" of \(owner())" }
        checkMembers(members, allowed: Self.variantFields, in: what())
        var weight = 1.0
        if let weightNode = node[member: "weight"] {
            if case .number(let value) = weightNode.kind, value > 0 {
                weight = value
            } else if case .number(let value) = weightNode.kind {
                error(
                    "weight of \(what()) must be positive, found \(AssignmentValue.number(value))",
                    at: weightNode.position
                )
            } else {
                error(
                    "weight of \(what()) must be a positive number, found \(weightNode.kindName)",
                    at: weightNode.position
                )
            }
        }
        guard let assignmentsNode = required("assignments", of: node, in: what()) else { return nil }
        guard case .object(let pairs) = assignmentsNode.kind else {
            error(
                "\"assignments\" of \(what()) must be an object, found \(assignmentsNode.kindName)",
                at: assignmentsNode.position
            )
            return nil
        }
        var assignments: [String: AssignmentValue] = [:]
        assignments.reserveCapacity(pairs.count)
        for pair in pairs {
            if assignments[pair.name] != nil {
                error("\(what()) assigns key \"\(pair.name)\" twice", at: pair.position)
                continue
            }
            if let keySet, !keySet.contains(pair.name) {
                error(
                    "\(what()) assigns key \"\(pair.name)\", which is not one of the experiment's keys",
                    at: pair.position
                )
            }
            switch pair.value.kind {
            case .string(let value): assignments[pair.name] = .string(value)
            case .number(let value): assignments[pair.name] = .number(value)
            case .bool(let value): assignments[pair.name] = .bool(value)
            default:
                error(
                    "value of key \"\(pair.name)\" in \(what()) must be a string, number or boolean, found \(pair.value.kindName)",
                    at: pair.value.position
                )
            }
        }
        // A key with a value of the wrong type is reported above, not as missing.
        for key in keys ?? [] where assignments[key] == nil && !pairs.contains(where: { $0.name == key }) {
            error("\(what()) does not assign key \"\(key)\"", at: node.position)
        }
        return Variant(name: name, weight: weight, assignments: VariantAssignments(assignments))
    }

    // MARK: - Members

    private mutating func required(_ name: String, of node: JSONNode, in what: @autoclosure () -> String) -> JSONNode? {
        if let value = node[member: name] { return value }
        error("\(what()) is missing \"\(name)\"", at: node.position)
        return nil
    }

    private mutating func requiredString(
        _ name: String,
        of node: JSONNode,
        in what: @autoclosure () -> String
    ) -> String? {
        guard let value = required(name, of: node, in: what()) else { return nil }
        guard case .string(let string) = value.kind else {
            error("\"\(name)\" of \(what()) must be a string, found \(value.kindName)", at: value.position)
            return nil
        }
        return string
    }

    /// Reports unknown and repeated fields. Only allowed names can repeat
    /// unnoticed, and there are a handful of them, so a short list of those
    /// seen keeps this linear however many members a hostile object has.
    private mutating func checkMembers(
        _ members: [JSONNode.Member],
        allowed: [String],
        in what: @autoclosure () -> String
    ) {
        var seen: [String] = []
        for member in members {
            if !allowed.contains(member.name) {
                let expected = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                error(
                    "unknown field \"\(member.name)\" in \(what()) (expected one of \(expected))",
                    at: member.position
                )
            } else if seen.contains(member.name) {
                error("field \"\(member.name)\" appears twice in \(what())", at: member.position)
            } else {
                seen.append(member.name)
            }
        }
    }
}
