/// How a variant's name is shown beside or under its experiment, and read
/// back when a person types what they saw.
package enum VariantName {
    /// The name without the experiment's name in front (`ButtonColorRed` under
    /// `ButtonColor` is `Red`), which says nothing there and takes the room
    /// the rest needs. Only cut where a new word starts (a capital, a digit, a
    /// separator, which goes too, or a letter of a script without case, as
    /// in Chinese or Japanese), and never down to nothing.
    package static func shown(_ variant: String, under experiment: String) -> String {
        guard !experiment.isEmpty, variant.hasPrefix(experiment) else { return variant }
        var rest = variant.dropFirst(experiment.count)
        guard let first = rest.first,
            first.isUppercase || first.isNumber || separators.contains(first) || (first.isLetter && !first.isCased)
        else {
            return variant
        }
        while let first = rest.first, separators.contains(first) { rest.removeFirst() }
        return rest.isEmpty ? variant : String(rest)
    }

    /// The variant a person means by a short name they saw (`Blue` for
    /// `ButtonColorBlue`), or, when no short name is close, the short names
    /// that are: `.found` only when exactly one variant is shown that way.
    package static func find(_ typed: String, among variants: [String], of experiment: String) -> NameMatch {
        var byShortName: [String: [String]] = [:]
        for variant in variants {
            let short = shown(variant, under: experiment)
            if short != variant { byShortName[short, default: []].append(variant) }
        }
        switch NameMatch.find(typed, in: Array(byShortName.keys)) {
        case .found(let short) where byShortName[short]?.count == 1:
            return .found(byShortName[short]![0])
        case .found:
            return .missing(suggestions: byShortName[typed] ?? [])
        case .missing(let suggestions):
            return .missing(suggestions: suggestions)
        }
    }

    private static let separators: Set<Character> = [".", "-", "_", "/", ":", " "]
}
