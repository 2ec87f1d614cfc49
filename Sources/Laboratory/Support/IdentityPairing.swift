/// Pairs the elements of two lists that mostly agree place by place (a list
/// before and after one change) by their identities.
///
/// A walk pairs what stands in the same place and steps over an element
/// found on one side only; what the walk leaves (an element that moved, as
/// a forced experiment moves ahead of the others) is paired by a lookup.
/// Only what moved is hashed, so pairing 10,000 experiments of which one
/// moved costs a walk, not two dictionaries of 10,000.
package enum IdentityPairing {
    /// The pairs, and the positions on each side that have no partner.
    package struct Result {
        /// Positions in the old list and the new one of the same identity, in no set order.
        package var pairs: [(old: Int, new: Int)] = []
        /// Old positions whose identity the new list does not have (or has fewer times).
        package var oldOnly: [Int] = []
        /// New positions whose identity the old list does not have (or has fewer times).
        package var newOnly: [Int] = []

        @usableFromInline
        init() {}
    }

    /// Pairs positions `0..<oldCount` and `0..<newCount` by `old(position)` and `new(position)`.
    ///
    /// Inlinable, so that `lab serve`'s module specializes it for its
    /// identities: called as a generic, each of 20,000 identities was
    /// compared and hashed through a witness table.
    @inlinable
    package static func pair<ID: Hashable>(
        oldCount: Int,
        newCount: Int,
        old: (Int) -> ID,
        new: (Int) -> ID
    ) -> Result {
        var result = Result()
        result.pairs.reserveCapacity(min(oldCount, newCount))
        var oldRest: [Int] = []
        var newRest: [Int] = []
        var (i, j) = (0, 0)
        while i < oldCount, j < newCount {
            let (a, b) = (old(i), new(j))
            if a == b {
                result.pairs.append((i, j))
                (i, j) = (i + 1, j + 1)
            } else if i + 1 < oldCount, old(i + 1) == b {
                oldRest.append(i)  // gone from here, or moved
                i += 1
            } else if j + 1 < newCount, new(j + 1) == a {
                newRest.append(j)  // new here, or moved here
                j += 1
            } else {
                oldRest.append(i)
                newRest.append(j)
                (i, j) = (i + 1, j + 1)
            }
        }
        oldRest += i..<oldCount
        newRest += j..<newCount
        var waiting: [ID: [Int]] = [:]
        for position in oldRest { waiting[old(position), default: []].append(position) }
        for position in newRest {
            let id = new(position)
            if var positions = waiting[id], !positions.isEmpty {
                result.pairs.append((positions.removeFirst(), position))
                waiting[id] = positions
            } else {
                result.newOnly.append(position)
            }
        }
        result.oldOnly = waiting.values.flatMap { $0 }.sorted()
        return result
    }
}
