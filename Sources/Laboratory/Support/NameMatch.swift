/// Finds what a person meant by a name they typed: the name itself, the one
/// name that differs only in case, or the nearest few for "did you mean".
package enum NameMatch: Equatable, Sendable {
    /// The name, or the single name equal to it but for case.
    case found(String)
    /// No such name; these are close (nearest first), maybe none.
    case missing(suggestions: [String])

    package static func find(_ typed: String, in names: [String]) -> NameMatch {
        if names.contains(typed) { return .found(typed) }
        let folded = typed.lowercased()
        let sameButCase = names.filter { $0.lowercased() == folded }
        if sameButCase.count == 1 { return .found(sameButCase[0]) }
        // Close: a few edits (fewer for short names, none for one or two letters), or the name holds what was
        // typed (`Blue` for `ButtonColorBlue`).
        let limit = typed.count < 3 ? 0 : max(1, min(3, typed.count / 3))
        let scored = names.map { (name: $0, distance: distance(folded, $0.lowercased())) }
            .filter { $0.distance <= limit || (folded.count >= 3 && $0.name.lowercased().contains(folded)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return .missing(suggestions: Array(scored.prefix(3).map(\.name)))
    }

    /// " (did you mean "A" or "B"?)", or nothing when there is no suggestion.
    package static func hint(_ suggestions: [String]) -> String {
        guard !suggestions.isEmpty else { return "" }
        let quoted = suggestions.map { "\"\($0)\"" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "; did you mean \(list)?"
    }

    /// Edit distance over characters, a swap of neighbours counting as one
    /// edit (`Rde` is one from `Red`), as typos go.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
