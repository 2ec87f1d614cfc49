/// How a variant's name is shown beside or under its experiment.
enum VariantName {
    /// The name without the experiment's name in front (`ButtonColorRed` under
    /// `ButtonColor` is `Red`), which says nothing there and takes the room
    /// the rest needs. Only cut where a new word starts (a capital, a digit or
    /// a separator, which goes too), and never down to nothing.
    static func shown(_ variant: String, under experiment: String) -> String {
        guard !experiment.isEmpty, variant.hasPrefix(experiment) else { return variant }
        var rest = variant.dropFirst(experiment.count)
        guard let first = rest.first, first.isUppercase || first.isNumber || separators.contains(first) else {
            return variant
        }
        while let first = rest.first, separators.contains(first) { rest.removeFirst() }
        return rest.isEmpty ? variant : String(rest)
    }

    private static let separators: Set<Character> = [".", "-", "_", "/", ":", " "]
}
