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
        // Sort indices, not the (large) values, by the priority rule.
        let keys = candidates.map { ($0.forced ? 0 : 1, rank[$0.source] ?? Int.max, $0.source, $0.experiment.name) }
        let ordered = candidates.indices.sorted { keys[$0] < keys[$1] }
        var accepted: [ActiveVariant] = []
        accepted.reserveCapacity(candidates.count)
        var owner: [String: Int] = [:]  // key → index in `accepted`
        var conflicts: [Conflict] = []
        for index in ordered {
            let candidate = candidates[index]
            let keys = Set(candidate.variant.assignments.keys)
            let clashes = Dictionary(grouping: keys.compactMap { key in owner[key].map { (key, $0) } }, by: \.1)
            if clashes.isEmpty {
                for key in keys { owner[key] = accepted.count }
                accepted.append(candidate)
                continue
            }
            for (index, pairs) in clashes.sorted(by: { $0.key < $1.key }) {
                conflicts.append(
                    Conflict(
                        keys: pairs.map(\.0).sorted(),
                        winner: party(accepted[index]),
                        loser: party(candidate)
                    )
                )
            }
        }
        return (accepted, conflicts)
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
