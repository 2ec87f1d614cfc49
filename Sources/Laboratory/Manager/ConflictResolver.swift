import GrowthBook

/// Decides, deterministically, which of several active experiments that
/// share keys the app gets.
///
/// The rule: a forced experiment beats one that is not; then the source
/// that comes first in the manager's list beats later ones; then the
/// experiment whose name sorts first wins. The loser is set aside whole, not
/// key by key, so the app never mixes the keys of two variants. Every loss
/// is reported as a ``Conflict``.
public enum ConflictResolver {
    /// The accepted experiments, in priority order, and the conflicts.
    public static func resolve(
        _ candidates: [ActiveVariant],
        sourceOrder: [String]
    ) -> (accepted: [ActiveVariant], conflicts: [Conflict]) {
        let rank = Dictionary(sourceOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // Sort indices, not the (large) values, by the priority rule. The
        // candidates come in that order as a rule (sources in order, names
        // sorted) but for the few that are forced, which go first: those are
        // sorted, and the rest, in order already, are not sorted again.
        // Each candidate's source rank, looked up once per run of one source (they come grouped).
        var ranks: [Int] = []
        ranks.reserveCapacity(candidates.count)
        var last: (source: String, rank: Int)?
        for index in candidates.indices {
            if let last, last.source == candidates[index].source {
                ranks.append(last.rank)
                continue
            }
            let found = rank[candidates[index].source] ?? Int.max
            last = (candidates[index].source, found)
            ranks.append(found)
        }
        func key(_ index: Int) -> (Int, String, String) {
            (ranks[index], candidates[index].source, candidates[index].experiment.name)
        }
        func inOrder(_ indices: [Int]) -> Bool {
            indices.indices.dropFirst().allSatisfy { !(key(indices[$0]) < key(indices[$0 - 1])) }
        }
        var forced: [Int] = []
        var unforced: [Int] = []
        unforced.reserveCapacity(candidates.count)
        for index in candidates.indices {
            if candidates[index].forced { forced.append(index) } else { unforced.append(index) }
        }
        // A stable sort, as the one over every candidate was: equal keys keep their order.
        func sorted(_ indices: [Int]) -> [Int] {
            inOrder(indices)
                ? indices
                : indices.sorted {
                    let (a, b) = (key($0), key($1))
                    return a < b || (a == b && $0 < $1)
                }
        }
        let ordered = sorted(forced) + sorted(unforced)
        // Positions first, values last: when every candidate is accepted in
        // the order given, as almost always, the answer is the candidates'
        // own array and no copy of thousands of variants is made.
        var accepted: [Int] = []  // indices in `candidates`
        accepted.reserveCapacity(candidates.count)
        var owner = NameIndex(capacity: candidates.count * 2)  // key → position in `accepted`
        var conflicts: [Conflict] = []
        for candidate in ordered {
            let keys = candidates[candidate].assignedKeys
            // The keys already taken, by whom: almost always none, and then nothing is built.
            var clashes: [Int: [String]] = [:]
            for key in keys {
                if let taken = owner[key] { clashes[taken, default: []].append(key) }
            }
            if clashes.isEmpty {
                for key in keys { owner.insert(key, at: accepted.count) }
                accepted.append(candidate)
                continue
            }
            for (winner, keys) in clashes.sorted(by: { $0.key < $1.key }) {
                conflicts.append(
                    Conflict(
                        keys: keys.sorted(),
                        winner: party(candidates[accepted[winner]]),
                        loser: party(candidates[candidate])
                    )
                )
            }
        }
        if accepted.elementsEqual(candidates.indices) { return (candidates, conflicts) }
        return (accepted.map { candidates[$0] }, conflicts)
    }

    private static func party(_ active: ActiveVariant) -> Conflict.Party {
        Conflict.Party(
            source: active.source,
            experiment: active.experiment.name,
            variant: active.variant.name,
            forced: active.forced
        )
    }
}
