/// What the app gets at one moment: the active assignments and how they came to be.
public struct AssignmentsSnapshot: Sendable, Hashable {
    /// Active assignments, sorted by key; at most one per key.
    public var assignments: [Assignment]
    /// The experiments whose assignments are served, in priority order.
    public var active: [ActiveVariant]
    /// Active experiments set aside because they share keys with a winner.
    public var conflicts: [Conflict]

    /// Position of each key in ``assignments``, so apps look keys up in constant time.
    private var index: [String: Int]

    /// A snapshot of these assignments, active variants and conflicts.
    public init(assignments: [Assignment] = [], active: [ActiveVariant] = [], conflicts: [Conflict] = []) {
        self.assignments = assignments
        self.active = active
        self.conflicts = conflicts
        index = Self.index(assignments)
    }

    /// A snapshot whose assignments have the keys of `previous`'s, in the
    /// same order, takes its index instead of building one: a force that
    /// changes a variant leaves every key where it was.
    init(assignments: [Assignment], active: [ActiveVariant], conflicts: [Conflict], reusingIndexOf previous: Self) {
        let sameKeys =
            assignments.count == previous.assignments.count
            && assignments.indices.allSatisfy { assignments[$0].key == previous.assignments[$0].key }
        self.init(
            assignments: assignments,
            active: active,
            conflicts: conflicts,
            index: sameKeys ? previous.index : Self.index(assignments)
        )
    }

    private init(assignments: [Assignment], active: [ActiveVariant], conflicts: [Conflict], index: [String: Int]) {
        self.assignments = assignments
        self.active = active
        self.conflicts = conflicts
        self.index = index
    }

    /// Each key's position, the first of a key winning.
    private static func index(_ assignments: [Assignment]) -> [String: Int] {
        Dictionary(assignments.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where `key`'s assignment is in ``assignments``.
    func position(of key: String) -> Int? {
        index[key]
    }

    /// The assignment for `key`, or `nil` when no active experiment assigns it.
    public func assignment(for key: String) -> Assignment? {
        index[key].map { assignments[$0] }
    }

    /// The conflicts an experiment takes part in, as winner or loser.
    public func conflicts(involving source: String, _ experiment: String) -> [Conflict] {
        conflicts.filter {
            ($0.winner.source == source && $0.winner.experiment == experiment)
                || ($0.loser.source == source && $0.loser.experiment == experiment)
        }
    }
}

extension AssignmentsSnapshot: Codable {
    private enum CodingKeys: String, CodingKey {
        case assignments, active, conflicts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            assignments: try container.decode([Assignment].self, forKey: .assignments),
            active: try container.decode([ActiveVariant].self, forKey: .active),
            conflicts: try container.decode([Conflict].self, forKey: .conflicts)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(assignments, forKey: .assignments)
        try container.encode(active, forKey: .active)
        try container.encode(conflicts, forKey: .conflicts)
    }
}
